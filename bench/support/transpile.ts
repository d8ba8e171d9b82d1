// Compiles TypeScript sources to JavaScript the way the production build lays them out (same
// relative paths), without type checking: the sync bench measures the compiled code path
// (`node file.js`, no tsx loader in the process), and a test runs the parse worker from
// compiled JavaScript as dist/ does. Uses the `typescript` devDependency.
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.ESNext,
  verbatimModuleSyntax: true,
  sourceMap: false,
};

const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)'(\.{1,2}\/[^']+)\.js'/g;

/**
 * `entries` and every source file they import through relative `.js` specifiers, transitively,
 * as paths relative to `root`: what a compiled run of the entries needs, and nothing of the
 * rest of the tree (which other work may be editing).
 */
export async function moduleGraph(root: string, entries: readonly string[]): Promise<string[]> {
  const seen = new Set<string>();
  const queue = [...entries];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const source = await readFile(path.join(root, file), 'utf8');
    for (const match of source.matchAll(RELATIVE_IMPORT)) {
      const specifier = match[1];
      if (specifier === undefined) continue;
      queue.push(path.relative(root, path.resolve(root, path.dirname(file), `${specifier}.ts`)));
    }
  }
  return [...seen].sort();
}

/** Every non-test .ts file under `dir` (fixtures excluded), as paths relative to `root`. */
export async function sourceFiles(root: string, dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .filter((file) => !file.split(path.sep).includes('fixtures'))
    .sort();
}

/** Writes `<outDir>/<file>.js` for each `file` (relative to `root`); returns the written paths. */
export async function transpileFiles(
  root: string,
  files: readonly string[],
  outDir: string,
): Promise<string[]> {
  const written: string[] = [];
  for (const file of files) {
    const source = await readFile(path.join(root, file), 'utf8');
    const { outputText, diagnostics } = ts.transpileModule(source, {
      compilerOptions: OPTIONS,
      fileName: file,
      reportDiagnostics: true,
    });
    if (diagnostics !== undefined && diagnostics.length > 0) {
      const text = ts.flattenDiagnosticMessageText(diagnostics[0]?.messageText ?? '', '\n');
      throw new Error(`cannot transpile ${file}: ${text}`);
    }
    const target = path.join(outDir, file.replace(/\.ts$/, '.js'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, outputText);
    written.push(target);
  }
  // ES modules by extension: the output may live outside the project's package.json.
  await writeFile(path.join(outDir, 'package.json'), '{ "type": "module" }\n');
  return written;
}

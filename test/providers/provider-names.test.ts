// Issue 23 item 1: outside its own folder (src/providers/<folder>/), the registry
// (src/providers/registry.ts) and the migrations, no source file names a provider, so adding
// one touches its folder and one line of the registry. Test files may name the real providers
// they exercise; every other file under src/, scripts/ and web/src/ is read.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../src/providers/registry.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCANNED = ['src', 'scripts', 'web/src'];
const PROVIDERS_DIR = 'src/providers';

/**
 * Generated from the served OpenAPI document (npm run web:types, checked by
 * test/web/api-types.test.ts), whose enums list the registered providers: derived, not a copy.
 */
const GENERATED = ['web/src/api-types.ts'];

/** The provider folders: the directories under src/providers/ holding a provider.ts. */
function providerFolders(): string[] {
  return readdirSync(path.join(ROOT, PROVIDERS_DIR), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .filter((name) => existsSync(path.join(ROOT, PROVIDERS_DIR, name, 'provider.ts')));
}

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(relative);
    return /\.(ts|tsx|mts|mjs|js)$/.test(entry.name) ? [relative] : [];
  });
}

function exempt(file: string, folders: readonly string[]): boolean {
  return (
    /\.test\.tsx?$/.test(file) ||
    file === `${PROVIDERS_DIR}/registry.ts` ||
    file.startsWith('src/storage/migrations/') ||
    folders.some((folder) => file.startsWith(`${PROVIDERS_DIR}/${folder}/`))
  );
}

describe('provider names in source files', () => {
  const folders = providerFolders();
  const names = [...PROVIDERS.map((p) => p.name), ...folders];
  const naming = new RegExp(`\\b(${names.join('|')})\\b`);
  const files = SCANNED.flatMap(filesUnder).filter((file) => !exempt(file, folders));
  const offenders = files
    .map((file) => ({ file, match: naming.exec(readFileSync(path.join(ROOT, file), 'utf8')) }))
    .filter((f) => f.match !== null);

  it('knows every registered provider by name and folder', () => {
    expect(folders.length).toBe(PROVIDERS.length);
    expect(names.length).toBeGreaterThan(PROVIDERS.length);
    expect(files.length).toBeGreaterThan(100);
  });

  it('finds none outside the provider folders, the registry and the migrations', () => {
    expect(
      offenders.filter((f) => !GENERATED.includes(f.file)).map((f) => `${f.file}: ${f.match![0]}`),
    ).toEqual([]);
  });

  it('keeps the list of generated files honest', () => {
    expect(offenders.map((f) => f.file).filter((file) => GENERATED.includes(file))).toEqual(
      GENERATED,
    );
  });

  it('would catch a file that names one', () => {
    expect(naming.test(`const x = '${PROVIDERS[0]!.name}';`)).toBe(true);
    expect(naming.test(`import './${folders[0]!}/adapter.js';`)).toBe(true);
  });
});

// Summaries of V8 CPU profiles (node --cpu-prof): self time per function and per owner of the
// code (a package, one of our files, Node's internals), over every profile in a folder (each
// thread writes its own).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** Where a frame's code lives: a package, one of our files, Node's internals, or V8 itself. */
function owner(url: string, functionName: string, root: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : 'native (V8, libuv)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `package ${pkg[1]}`;
  if (url.startsWith('node:')) return 'Node.js internals (module loading, streams...)';
  return ourPath(url, root);
}

/** One of our files as a path from the root; compiled apps (bench/.out/app-<pid>/) name the source. */
function ourPath(url: string, root: string): string {
  return url.replace(`file://${root}/`, '').replace(/^bench\/\.out\/[^/]+\//, '');
}

/** Self time per function and per owner over every profile in `dir`, the largest first. */
export function topFrames(dir: string, count: number, root: string) {
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  let totalMs = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
      nodes: ProfileNode[];
      samples: number[];
      timeDeltas: number[];
    };
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const frame = byId.get(id)!.callFrame;
      if (frame.functionName === '(idle)') return;
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      const where = ourPath(frame.url, root).replace(/^.*node_modules\//, '');
      const key = frame.functionName.startsWith('(')
        ? frame.functionName
        : `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
      byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
      const who = owner(frame.url, frame.functionName, root);
      byOwner.set(who, (byOwner.get(who) ?? 0) + ms);
      totalMs += ms;
    });
  }
  const rows = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(
        ([key, ms]) => `| ${ms.toFixed(0)} | ${((ms / totalMs) * 100).toFixed(1)}% | \`${key}\` |`,
      );
  return { functions: rows(byFunction), owners: rows(byOwner), totalMs };
}

// npm run bench:recommend — POST /recommend on the real catalogue (the bundled snapshots of all
// three providers, synced through the real adapters), side by side with a bare node:http server
// that reads and parses the JSON body and answers with the bytes and headers the app sent, in
// one run (bench/support/side-by-side.ts). Every request comes from a new client address. Two
// cases: the same body on every request (the answer memo's path), and a budget_max never sent
// before on every request (bench/wrk/new-client.lua fills `{price}`: every request ranks anew,
// as a budget slider in a web page produces them).
// Writes its section of docs/performance.md.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BARE, KEY, availableRecords, fill, method, startApp } from './support/app-bench.js';
import { CLIENT_HEADER } from './support/bench-settings.js';
import { capture, writeForBare } from './support/capture.js';
import { machineLine, uptime, writeSection } from './support/report.js';
import { startServer } from './support/server-process.js';
import {
  CONNECTIONS,
  cpuMicros,
  roundsTable,
  sideBySide,
  verdict,
  type SideBySide,
} from './support/side-by-side.js';
import { AddressSpace, requireWrk } from './support/wrk.js';

const BODY = JSON.stringify({
  stack: ['nginx', 'nodejs', 'postgresql', 'redis'],
  scale: 'medium',
  budget_max: 80,
});
/** The same request with a budget never sent before, per request ($20-$500, see the lua). */
const NEW_BUDGET_BODY = BODY.replace('"budget_max":80', '"budget_max":{price}');

requireWrk();
const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-bench-recommend-'));
const loadAtStart = uptime();
try {
  await fill(dir, 'snapshots');
  const app = startApp(dir);
  const appUrl = await app.url;
  const records = await availableRecords(app);
  const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
  const sample = await capture(`${appUrl}/recommend`, {
    method: 'POST',
    headers: { ...headers, [CLIENT_HEADER]: 'capture-1' },
    body: BODY,
  });
  const bodyFile = path.join(dir, 'recommend.body');
  writeForBare(bodyFile, sample);
  const requestFile = path.join(dir, 'recommend.request.json');
  writeFileSync(requestFile, BODY);
  const newBudgetFile = path.join(dir, 'recommend.new-budget.json');
  writeFileSync(newBudgetFile, NEW_BUDGET_BODY);
  const bare = startServer(BARE, [bodyFile]);
  const addresses = new AddressSpace();
  let result;
  let newBudget;
  let logLines = 0;
  try {
    const run = async (file: string) =>
      sideBySide(
        { name: 'cloudprice', url: appUrl, pid: app.pid },
        { name: 'bare', url: await bare.url, pid: bare.pid },
        {
          path: '/recommend',
          method: 'POST',
          bodyFile: file,
          headers,
          connections: CONNECTIONS,
          clientHeader: CLIENT_HEADER,
        },
        addresses,
      );
    result = await run(requestFile);
    newBudget = await run(newBudgetFile);
    logLines = app.requestLines();
  } finally {
    await Promise.all([app.stop(), bare.stop()]);
  }
  const line = (name: string, r: SideBySide, target: number) =>
    `- POST /recommend, ${name}: CPU per request bare ÷ ours **${r.medianCpuShare.toFixed(2)}** ` +
    `(${cpuMicros(r, 'b')} µs vs ${cpuMicros(r, 'a')} µs in the median round), ${verdict(r.medianCpuShare, target)}; ` +
    `requests/s **${r.medianRatio.toFixed(2)}** of bare; cloudprice p99 ${r.medianRoundP99Ms.toFixed(1)} ms in the median round`;
  const summary = line('the same body', result, 0.4);
  const newSummary = line('a new budget_max on every request', newBudget, 0.2);
  const answered = [result, newBudget].reduce(
    (sum, r) => sum + r.rounds.reduce((n, round) => n + round.a.requests, r.warmupRequests),
    1,
  );
  const logSummary = `- log: ${logLines.toLocaleString('en-US')} request lines for ${answered.toLocaleString('en-US')} requests wrk counted (D60: one line each; the server also answers the requests in flight when a run stops)`;
  console.log(`${summary}\n${newSummary}\n${logSummary}`);
  writeSection(
    'recommend',
    `## POST /recommend (issue 23, as shipped)

Command: \`npm run bench:recommend\` (bench/recommend.bench.ts). ${machineLine()}.
Load average (\`uptime\`) at the start: ${loadAtStart}; at the end: ${uptime()}.
Catalogue: the bundled snapshots of all three providers synced through the real adapters into
SQLite (${records} available records). Method: ${method()} For /recommend the bare server also
parses the JSON request body before it answers.

Case 1, request body the same on every request: \`${BODY}\`; response ${sample.body.length} B.
/recommend memoises whole answers per catalogue index and normalised request
(src/recommend/recommend-memo.ts), kept from a request's second asking: the first two requests
rank and explain the candidates, every later one with the same body validates it, finds the
answer and writes its own query_time_ms.

Case 2, a new budget on every request: \`${NEW_BUDGET_BODY}\`, \`{price}\` replaced per request by
a value never sent before in $20-$500 (bench/wrk/new-client.lua), so every request misses the
memo and ranks the candidates (the path a budget slider produces). The bare server sends case
1's bytes (answers of other budgets differ in a few pros/cons words).

${summary}
${newSummary}
${logSummary}

Case 1:

${roundsTable(result)}

Case 2:

${roundsTable(newBudget)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

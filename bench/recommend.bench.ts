// npm run bench:recommend — POST /recommend on the real catalogue (the bundled snapshots of all
// three providers, synced through the real adapters), side by side with a bare node:http server
// that reads and parses the JSON body and answers with the bytes and headers the app sent, in
// one run (bench/support/side-by-side.ts). Every request comes from a new client address.
// Writes its section of docs/performance.md.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BARE, KEY, availableRecords, fill, method, startApp } from './support/app-bench.js';
import { CLIENT_HEADER } from './support/bench-settings.js';
import { capture, writeForBare } from './support/capture.js';
import { machineLine, uptime, writeSection } from './support/report.js';
import { startServer } from './support/server-process.js';
import { CONNECTIONS, roundsTable, sideBySide, verdict } from './support/side-by-side.js';
import { requireWrk } from './support/wrk.js';

const BODY = JSON.stringify({
  stack: ['nginx', 'nodejs', 'postgresql', 'redis'],
  scale: 'medium',
  budget_max: 80,
});

requireWrk();
const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-bench-recommend-'));
const loadAtStart = uptime();
try {
  await fill(dir, 'snapshots');
  const app = startApp(dir, 'snapshots');
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
  const bare = startServer(BARE, [bodyFile]);
  let result;
  try {
    result = await sideBySide(
      { name: 'cloudprice', url: appUrl },
      { name: 'bare', url: await bare.url },
      {
        path: '/recommend',
        method: 'POST',
        bodyFile: requestFile,
        headers,
        connections: CONNECTIONS,
        clientHeader: CLIENT_HEADER,
      },
    );
  } finally {
    await Promise.all([app.stop(), bare.stop()]);
  }
  const summary = `- POST /recommend: **${result.medianRatio.toFixed(2)}** of bare, ${verdict(result.medianRatio, 0.5)}; cloudprice p99 ${result.medianRoundP99Ms.toFixed(1)} ms in the median round`;
  console.log(summary);
  writeSection(
    'recommend',
    `## POST /recommend (issue 9)

Command: \`npm run bench:recommend\` (bench/recommend.bench.ts). ${machineLine()}.
Load average (\`uptime\`) at the start: ${loadAtStart}; at the end: ${uptime()}.
Catalogue: the bundled snapshots of all three providers synced through the real adapters into
SQLite (${records} available records). Method: ${method()} For /recommend the bare server also
parses the JSON request body before it answers.

Request body, the same on every request: \`${BODY}\`; response ${sample.body.length} B.
/recommend memoises whole answers per catalogue index and normalised request
(src/recommend/recommend-memo.ts): the first request ranks and explains the candidates, every
later one with the same body validates it, finds the answer and writes its own query_time_ms.
The same body on every request measures that memoised path (a new body costs one ranking of
the candidates, about 6 ms on this catalogue).

${summary}

${roundsTable(result)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

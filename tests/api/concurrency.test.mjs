// 64 clients streaming at once through the real engine (continuous batching): every stream
// completes, greedy outputs equal the single-client outputs, and /health answers quickly
// throughout.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { OpenAI, startServer } from './lib/harness.mjs';

const CLIENTS = 64;
const prompts = ['Once upon a time', 'The cat sat', 'Tom had a red ball', 'One day, a little girl',
  'The sun was shining', 'Ben and his mom', 'There was a big tree', 'Sue liked to play'];

let server;
let client;

before(async () => {
  server = await startServer({ args: ['--parallel', '64'] });
  client = new OpenAI({ baseURL: `${server.base}/v1`, apiKey: 'x', maxRetries: 0, timeout: 120000 });
});
after(async () => { await server?.stop(); });

async function streamOnce(prompt, user) {
  const stream = await client.completions.create({
    model: 'stories260K', prompt, max_tokens: 40, temperature: 0, stream: true, user,
  });
  let text = '';
  let finish;
  for await (const chunk of stream) {
    for (const c of chunk.choices) {
      text += c.text ?? '';
      if (c.finish_reason) finish = c.finish_reason;
    }
  }
  return { text, finish };
}

test(`${CLIENTS} concurrent streams match the single-client greedy outputs`, async () => {
  const single = [];
  for (const p of prompts) single.push(await streamOnce(p, 'solo'));
  for (const s of single) assert.ok(s.text.length > 0 && s.finish);

  let healthWorst = 0;
  let healthFailures = 0;
  let healthChecks = 0;
  let running = true;
  const poll = (async () => {
    while (running) {
      const t0 = performance.now();
      const r = await fetch(`${server.base}/health`).catch(() => null);
      healthWorst = Math.max(healthWorst, performance.now() - t0);
      healthChecks++;
      if (!r || r.status !== 200) healthFailures++;
      await r?.text();
      await new Promise((res) => setTimeout(res, 10));
    }
  })();

  const t0 = performance.now();
  const results = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => streamOnce(prompts[i % prompts.length], `u${i}`)));
  const seconds = (performance.now() - t0) / 1000;
  running = false;
  await poll;

  results.forEach((r, i) => {
    const expected = single[i % prompts.length];
    assert.equal(r.finish, expected.finish, `client ${i} finish`);
    assert.equal(r.text, expected.text, `client ${i} output differs from the single-client one`);
  });
  assert.equal(healthFailures, 0);
  assert.ok(healthChecks >= 3, 'health was polled during the run');
  assert.ok(healthWorst < 2000, `/health took ${healthWorst.toFixed(0)} ms at worst`);
  console.log(`${CLIENTS} streams in ${seconds.toFixed(1)} s; /health worst ${healthWorst.toFixed(0)} ms over ${healthChecks} checks`);
});

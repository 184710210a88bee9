// A table of bad requests against the real server: each gets its documented status and error
// body, and the server keeps serving. Also the LAN rule (refuse to start without a key; 401
// without/with a wrong key), key revocation while running, and a client that disconnects
// mid-stream (its request is cancelled, the others carry on).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { keys, modelPath, postJson, serveRefused, startServer, tempDir } from './lib/harness.mjs';
import path from 'node:path';

let server;
const chat = (extra = {}) => ({ model: 'stories260K', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 4, ...extra });

before(async () => { server = await startServer({ args: ['--max-body-mb', '4'] }); });
after(async () => { await server?.stop(); });

function assertOpenAiError(r, status, code, param) {
  assert.equal(r.status, status, r.text.slice(0, 300));
  assert.ok(r.json && typeof r.json.error === 'object', r.text.slice(0, 300));
  const e = r.json.error;
  assert.equal(typeof e.message, 'string');
  assert.ok(e.message.length > 0);
  assert.equal(typeof e.type, 'string');
  assert.ok('param' in e && 'code' in e);
  if (code !== undefined) assert.equal(e.code, code);
  if (param !== undefined) assert.equal(e.param, param);
}

async function assertStillServing() {
  const ok = await postJson(server.base, '/v1/chat/completions', chat());
  assert.equal(ok.status, 200, ok.text);
  assert.equal((await fetch(`${server.base}/health`)).status, 200);
}

const cases = [
  ['malformed JSON', '/v1/chat/completions', '{"model": "stories260K", "messages": [', 400, 'invalid_json', null],
  ['body is an array', '/v1/chat/completions', '[]', 400, 'invalid_json', null],
  ['messages is a string', '/v1/chat/completions', { model: 'stories260K', messages: 'hi' }, 400, 'invalid_type', 'messages'],
  ['temperature is a string', '/v1/chat/completions', chat({ temperature: 'warm' }), 400, 'invalid_type', 'temperature'],
  ['n is fractional', '/v1/chat/completions', chat({ n: 2.5 }), 400, 'invalid_type', 'n'],
  ['stream is a number', '/v1/chat/completions', chat({ stream: 1 }), 400, 'invalid_type', 'stream'],
  ['huge max_tokens', '/v1/chat/completions', chat({ max_tokens: 2 ** 31 - 1 }), 400, 'invalid_value', 'max_tokens'],
  ['negative max_tokens', '/v1/chat/completions', chat({ max_tokens: -1 }), 400, 'invalid_value', 'max_tokens'],
  ['negative top_p', '/v1/chat/completions', chat({ top_p: -0.5 }), 400, 'invalid_value', 'top_p'],
  ['negative n', '/v1/completions', { prompt: 'a', n: -3 }, 400, 'invalid_value', 'n'],
  ['unknown model', '/v1/chat/completions', chat({ model: 'llama-9000' }), 404, 'model_not_found', 'model'],
  ['unknown route', '/v1/engines', {}, 404, 'unknown_route', null],
  ['prompt is a number', '/v1/completions', { prompt: 42 }, 400, 'invalid_type', 'prompt'],
  ['prompt too long', '/v1/completions', { prompt: 'word '.repeat(5000) }, 400, 'context_length_exceeded', 'prompt'],
  ['unsupported schema', '/v1/chat/completions',
    chat({ response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'integer', minimum: 3 } } } }),
    400, 'invalid_schema', 'response_format.json_schema.schema'],
];

for (const [name, route, body, status, code, param] of cases) {
  test(`bad input: ${name} -> ${status}`, async () => {
    assertOpenAiError(await postJson(server.base, route, body), status, code, param);
    await assertStillServing();
  });
}

test('bad input: 10 MB body -> 413', async () => {
  const big = JSON.stringify(chat({ messages: [{ role: 'user', content: 'a'.repeat(10 * 1024 * 1024) }] }));
  assertOpenAiError(await postJson(server.base, '/v1/chat/completions', big), 413, 'request_too_large');
  await assertStillServing();
});

test('bad input: Ollama routes answer with {"error": "..."}', async () => {
  for (const [route, body, status] of [
    ['/api/chat', '{nope', 400],
    ['/api/chat', { model: 'missing', messages: [{ role: 'user', content: 'x' }] }, 404],
    ['/api/generate', { model: 'stories260K', prompt: 'x', options: { num_predict: 'lots' } }, 400],
  ]) {
    const r = await postJson(server.base, route, body);
    assert.equal(r.status, status, r.text);
    assert.equal(typeof r.json.error, 'string');
  }
  await assertStillServing();
});

async function metric(name) {
  const m = await (await fetch(`${server.base}/metrics`)).text();
  return Number(m.match(new RegExp(`^${name}\\S* (\\d+(?:\\.\\d+)?)`, 'm'))?.[1] ?? NaN);
}

test('disconnect mid-stream cancels that request', async () => {
  const before = await metric('hearth_generated_tokens_total');
  const ac = new AbortController();
  const res = await fetch(`${server.base}/v1/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'The dog', max_tokens: 1500, temperature: 0.9, stream: true, ignore_eos: true }),
    signal: ac.signal,
  });
  assert.equal(res.status, 200);
  const reader = res.body.getReader();
  for (let got = 0; got < 3;) { const { value } = await reader.read(); if (value) got++; }
  ac.abort();
  // The engine drops it: nothing stays in flight or running, and it stopped far short of 1500
  // tokens. (Engine stats are a snapshot: wait until it shows the tokens that were streamed.)
  let settled = false;
  let generated = 0;
  for (let i = 0; i < 50 && !settled; i++) {
    generated = (await metric('hearth_generated_tokens_total')) - before;
    settled = generated >= 3 && (await metric('hearth_requests_running')) === 0 &&
              (await metric('hearth_http_requests_in_flight')) === 0 && (await metric('hearth_http_streams_active')) === 0;
    if (!settled) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(settled, 'the aborted request is gone');
  assert.ok(generated < 1000, `the aborted stream generated ${generated} tokens`);
  console.log(`aborted stream: ${generated} tokens generated (3 chunks read before the abort)`);
  await assertStillServing();
});

test('LAN bind: refused without a key, 401 without or with a wrong key, revocation applies', async () => {
  const dir = tempDir();
  const db = path.join(dir, 'server.sqlite');
  const refused = serveRefused(['-m', modelPath('stories260K.gguf'), '--host', '0.0.0.0', '--port', '0', '--db', db]);
  assert.notEqual(refused.status, 0);
  assert.match(refused.stderr, /hearth-cli keys create/);

  const key = keys(db, 'create', 'alice');
  assert.match(key, /^hk_[0-9a-f]{8}_[0-9a-f]{48}$/);
  assert.match(keys(db, 'list'), /alice\s/);
  const lan = await startServer({ db, args: ['--host', '0.0.0.0'] });
  try {
    assertOpenAiError(await postJson(lan.base, '/v1/chat/completions', chat()), 401, 'invalid_api_key');
    assertOpenAiError(await postJson(lan.base, '/v1/chat/completions', chat(), { authorization: 'Bearer hk_00000000_' + '0'.repeat(48) }), 401, 'invalid_api_key');
    assertOpenAiError(await postJson(lan.base, '/v1/chat/completions', chat(), { authorization: `Bearer ${key}x` }), 401, 'invalid_api_key');
    const ok = await postJson(lan.base, '/v1/chat/completions', chat(), { authorization: `Bearer ${key}` });
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await fetch(`${lan.base}/health`)).status, 200);  // no key needed
    keys(db, 'revoke', 'alice');
    let status = 200;
    for (let i = 0; i < 40 && status === 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await postJson(lan.base, '/v1/chat/completions', chat(), { authorization: `Bearer ${key}` })).status;
    }
    assert.equal(status, 401);
  } finally {
    await lan.stop();
  }
});

// The `ollama` npm client against the real server and engine: chat and generate, streamed and
// not, list, ps, version, errors.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Ollama, startServer } from './lib/harness.mjs';

let server;
let ollama;

before(async () => {
  server = await startServer();
  ollama = new Ollama({ host: server.base });
});
after(async () => { await server?.stop(); });

const options = { temperature: 0, num_predict: 24 };

test('list, ps and version', async () => {
  const list = await ollama.list();
  assert.equal(list.models.length, 1);
  assert.equal(list.models[0].name, 'stories260K:latest');
  assert.equal(list.models[0].details.format, 'gguf');
  const ps = await ollama.ps();
  assert.equal(ps.models[0].model, 'stories260K:latest');
  const v = await ollama.version();
  assert.match(v.version, /^\d+\.\d+\.\d+$/);
});

test('chat, not streamed and streamed, agree', async () => {
  const messages = [{ role: 'user', content: 'Tell me a story about a bird.' }];
  const whole = await ollama.chat({ model: 'stories260K', messages, stream: false, options });
  assert.equal(whole.message.role, 'assistant');
  assert.ok(whole.message.content.length > 0);
  assert.equal(whole.done, true);
  assert.ok(['stop', 'length'].includes(whole.done_reason));
  assert.ok(whole.eval_count > 0 && whole.prompt_eval_count > 0);
  let text = '';
  let last;
  for await (const part of await ollama.chat({ model: 'stories260K', messages, stream: true, options })) {
    text += part.message.content;
    last = part;
  }
  assert.equal(last.done, true);
  assert.equal(text, whole.message.content);
  assert.equal(last.eval_count, whole.eval_count);
});

test('generate, not streamed and streamed, agree', async () => {
  const whole = await ollama.generate({ model: 'stories260K', prompt: 'Lily went to the park', raw: true, stream: false, options });
  assert.ok(whole.response.length > 0);
  assert.equal(whole.done, true);
  assert.ok(Array.isArray(whole.context) && whole.context.length > whole.eval_count);
  let text = '';
  let last;
  for await (const part of await ollama.generate({ model: 'stories260K', prompt: 'Lily went to the park', raw: true, stream: true, options })) {
    text += part.response;
    last = part;
  }
  assert.equal(text, whole.response);
  assert.equal(last.done, true);
  const templated = await ollama.generate({ model: 'stories260K', prompt: 'Hello', stream: false, options });
  assert.equal(templated.done, true);
  const json = await ollama.generate({ model: 'stories260K', prompt: 'data:', format: 'json', raw: true, stream: false,
                                       options: { temperature: 0.8, seed: 2, num_predict: 150 } });
  if (json.done_reason === 'stop') assert.equal(typeof JSON.parse(json.response), 'object');
});

test('errors reach the client as ResponseError', async () => {
  await assert.rejects(ollama.chat({ model: 'nope', messages: [{ role: 'user', content: 'x' }] }),
    (e) => e.name === 'ResponseError' && e.status_code === 404 && /nope/.test(e.error));
  await assert.rejects(ollama.generate({ model: 'stories260K', prompt: 'x', options: { temperature: 'hot' } }),
    (e) => e.status_code === 400);
});

// The official `openai` npm SDK against the real server and engine (stories260K): list models,
// chat completion, streamed chat with usage, completions, json_schema output, error cases.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { OpenAI, startServer } from './lib/harness.mjs';

let server;
let client;

before(async () => {
  server = await startServer();
  client = new OpenAI({ baseURL: `${server.base}/v1`, apiKey: 'not-needed-on-loopback', maxRetries: 0 });
});
after(async () => { await server?.stop(); });

test('models.list', async () => {
  const ids = [];
  for await (const m of client.models.list()) ids.push(m.id);
  assert.deepEqual(ids, ['stories260K']);
  const one = await client.models.retrieve('stories260K');
  assert.equal(one.object, 'model');
});

test('chat completion', async () => {
  const r = await client.chat.completions.create({
    model: 'stories260K',
    messages: [{ role: 'system', content: 'You tell stories.' }, { role: 'user', content: 'Tell me about a cat.' }],
    temperature: 0,
    max_tokens: 24,
  });
  assert.equal(r.object, 'chat.completion');
  assert.equal(r.choices.length, 1);
  assert.equal(r.choices[0].message.role, 'assistant');
  assert.ok(r.choices[0].message.content.length > 0);
  assert.ok(['stop', 'length'].includes(r.choices[0].finish_reason));
  assert.ok(r.usage.prompt_tokens > 5);
  assert.ok(r.usage.completion_tokens > 0 && r.usage.completion_tokens <= 24);
  assert.equal(r.usage.total_tokens, r.usage.prompt_tokens + r.usage.completion_tokens);
});

test('streamed chat completion with usage equals the non-streamed one', async () => {
  const params = { model: 'stories260K', messages: [{ role: 'user', content: 'Once upon a time' }], temperature: 0, max_tokens: 32 };
  const whole = await client.chat.completions.create(params);
  const stream = await client.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } });
  let text = '';
  let role;
  let finish;
  let usage;
  let chunks = 0;
  for await (const chunk of stream) {
    chunks++;
    if (chunk.usage) usage = chunk.usage;
    for (const c of chunk.choices) {
      if (c.delta.role) role = c.delta.role;
      text += c.delta.content ?? '';
      if (c.finish_reason) finish = c.finish_reason;
    }
  }
  assert.ok(chunks > 3);
  assert.equal(role, 'assistant');
  assert.equal(text, whole.choices[0].message.content);
  assert.equal(finish, whole.choices[0].finish_reason);
  assert.ok(usage, 'a usage chunk');
  assert.equal(usage.completion_tokens, whole.usage.completion_tokens);
  assert.equal(usage.prompt_tokens, whole.usage.prompt_tokens);
});

test('completions, n and logprobs', async () => {
  const r = await client.completions.create({ model: 'stories260K', prompt: 'The little dog', max_tokens: 8, temperature: 0, n: 2, logprobs: 2 });
  assert.equal(r.object, 'text_completion');
  assert.equal(r.choices.length, 2);
  assert.equal(r.choices[0].text, r.choices[1].text, 'greedy choices agree');
  assert.equal(r.choices[0].logprobs.tokens.length, r.usage.completion_tokens / 2);
  assert.ok(r.choices[0].logprobs.token_logprobs.every((x) => x <= 0));
  const s = await client.completions.create({ model: 'stories260K', prompt: 'The little dog', max_tokens: 8, temperature: 0, stream: true });
  let text = '';
  for await (const chunk of s) text += chunk.choices[0]?.text ?? '';
  assert.equal(text, r.choices[0].text);
});

test('response_format json_schema output parses and validates', async () => {
  const schema = {
    type: 'object',
    properties: { name: { type: 'string', maxLength: 10 }, age: { type: 'integer' }, pet: { enum: ['cat', 'dog'] } },
    required: ['name', 'age', 'pet'],
    additionalProperties: false,
  };
  for (const temperature of [0, 1]) {
    const r = await client.chat.completions.create({
      model: 'stories260K',
      messages: [{ role: 'user', content: 'Describe a person as JSON.' }],
      temperature,
      seed: 5,
      max_tokens: 200,
      response_format: { type: 'json_schema', json_schema: { name: 'person', schema, strict: true } },
    });
    assert.equal(r.choices[0].finish_reason, 'stop');
    const doc = JSON.parse(r.choices[0].message.content);
    assert.deepEqual(Object.keys(doc).sort(), ['age', 'name', 'pet']);
    assert.equal(typeof doc.name, 'string');
    assert.ok(doc.name.length <= 10);
    assert.ok(Number.isInteger(doc.age));
    assert.ok(['cat', 'dog'].includes(doc.pet));
  }
  const obj = await client.chat.completions.create({
    model: 'stories260K', messages: [{ role: 'user', content: 'JSON please' }], max_tokens: 120, temperature: 0.7, seed: 1,
    response_format: { type: 'json_object' },
  });
  if (obj.choices[0].finish_reason === 'stop') assert.equal(typeof JSON.parse(obj.choices[0].message.content), 'object');
});

test('errors are typed SDK errors', async () => {
  await assert.rejects(
    client.chat.completions.create({ model: 'gpt-nope', messages: [{ role: 'user', content: 'x' }] }),
    (e) => e instanceof OpenAI.NotFoundError && e.status === 404 && e.code === 'model_not_found',
  );
  await assert.rejects(
    client.chat.completions.create({ model: 'stories260K', messages: [{ role: 'user', content: 'x' }], temperature: 9 }),
    (e) => e instanceof OpenAI.BadRequestError && e.status === 400 && e.param === 'temperature',
  );
  await assert.rejects(
    client.chat.completions.create({ model: 'stories260K', messages: [{ role: 'user', content: 'x' }], max_tokens: 10 ** 9 }),
    (e) => e instanceof OpenAI.BadRequestError && e.param === 'max_tokens',
  );
});

// Starts `hearth-cli serve` on a free loopback port for the acceptance tests and loads the real
// npm clients from tests/node/node_modules (installed by .ci/run; nothing is downloaded here).
//
// Environment (set by CTest): HEARTH_CLI (the binary), HEARTH_SHARED (models), HEARTH_NODE_DIR
// (tests/node). Each server gets its own temporary database, so keys never leak between tests.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const sourceRoot = path.resolve(here, '../../..');
export const cli = process.env.HEARTH_CLI ?? path.join(sourceRoot, 'build/bin/hearth-cli');
export const sharedDir = process.env.HEARTH_SHARED ?? path.resolve(sourceRoot, '../shared');
const nodeDir = process.env.HEARTH_NODE_DIR ?? path.join(sourceRoot, 'tests/node');
const requireFromNodeDir = createRequire(path.join(nodeDir, 'package.json'));

export const OpenAI = requireFromNodeDir('openai').OpenAI;
export const Ollama = requireFromNodeDir('ollama').Ollama;
export const modelPath = (name) => path.join(sharedDir, 'models', name);

export function tempDir() {
  return mkdtempSync(path.join(tmpdir(), 'hearth-api-'));
}

// `hearth-cli keys ...` on a database; returns stdout (the new key for `create`).
export function keys(db, ...args) {
  const r = spawnSync(cli, ['keys', ...args, '--db', db], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`keys ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout.trim();
}

// Starts a server; resolves once it printed "ready" (or rejects with its output if it exits).
export async function startServer({ model = 'stories260K.gguf', args = [], db, readyTimeoutMs = 60000 } = {}) {
  const dir = tempDir();
  const dbPath = db ?? path.join(dir, 'server.sqlite');
  const argv = ['serve', '-m', modelPath(model), '--port', '0', '--db', dbPath, '--threads', '2', ...args];
  const proc = spawn(cli, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stderr.on('data', (d) => { err += d; });
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server not ready in time\n${out}\n${err}`)), readyTimeoutMs);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m && /ready: serving/.test(out)) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}\n${out}\n${err}`));
    });
  });
  const url = await ready;
  const port = Number(new URL(url).port);
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    port,
    dbPath,
    proc,
    stderr: () => err,
    async stop() {
      if (proc.exitCode === null) {
        const exited = new Promise((resolve) => proc.on('exit', resolve));
        proc.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Runs `hearth-cli serve` expecting it to refuse to start; returns {status, stderr}.
export function serveRefused(args) {
  const r = spawnSync(cli, ['serve', ...args], { encoding: 'utf8', timeout: 60000 });
  return { status: r.status, stderr: r.stderr };
}

export async function postJson(base, route, body, headers = {}) {
  const res = await fetch(base + route, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: res.status, json, text, headers: res.headers };
}

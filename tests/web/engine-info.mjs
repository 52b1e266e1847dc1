// What the engine tells the page (its `levels` and `rules` answers), asked from the real
// engine in CPython, so the page's unit tests check against the engine's own data.

import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

let cached = null;

/** {levels, rules}: the engine's answers (JSON). */
export function engineInfo() {
  if (cached) return cached;
  const python = process.env.JABBERWOCKY_PYTHON || "python3";
  const script = [
    "import json, sys",
    "sys.path.insert(0, 'src')",
    "from jabberwocky.webapi import WebApi",
    "api = WebApi()",
    "print(json.dumps({'levels': json.loads(api.handle('levels', '{}'))['result'],",
    "                  'rules': json.loads(api.handle('rules', '{}'))['result']}))",
  ].join("\n");
  cached = JSON.parse(execFileSync(python, ["-c", script], { cwd: ROOT, encoding: "utf8" }));
  return cached;
}

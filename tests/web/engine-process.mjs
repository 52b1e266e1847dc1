// The real engine for the page's unit tests: a CPython process serving the worker
// protocol's requests (jabberwocky.webapi) over stdin/stdout, one JSON line each way.
// It is a transport for web/js/engine.js's Engine (`send(kind, payload)`: a promise of the
// engine's answer, {result} or {error}), the way the worker is on the page; its
// `request(type, payload)` is a promise of the result, rejected with {kind, message, code,
// params} on an error answer (for tests that ask the engine directly).

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { ROOT } from "./engine-info.mjs";

const SERVER = `
import json, sys
sys.path.insert(0, "src")
from jabberwocky.webapi import WebApi
api = WebApi()
for line in sys.stdin:
    kind, payload = json.loads(line)
    sys.stdout.write(api.handle(kind, payload) + "\\n")
    sys.stdout.flush()
`;

export function startEngine() {
  const python = process.env.JABBERWOCKY_PYTHON || "python3";
  const child = spawn(python, ["-c", SERVER], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  lines.on("line", (line) => waiting.shift()(JSON.parse(line)));
  const log = [];
  const send = (type, payload = {}) => {
    log.push(type);
    return new Promise((resolve) => {
      waiting.push(resolve);
      child.stdin.write(JSON.stringify([type, JSON.stringify(payload)]) + "\n");
    });
  };
  return {
    log,
    send,
    request(type, payload = {}) {
      log.push(type);
      return new Promise((resolve, reject) => {
        waiting.push((reply) => {
          if ("error" in reply) reject(Object.assign(new Error(reply.error.message), reply.error));
          else resolve(reply.result);
        });
        child.stdin.write(JSON.stringify([type, JSON.stringify(payload)]) + "\n");
      });
    },
    stop() {
      child.stdin.end();
      child.kill();
    },
  };
}

#!/usr/bin/env python3
"""A scripted OpenAI-compatible chat-completions server on loopback for the `cudaperf refine` tests.

POST /v1/chat/completions answers from a script instead of a model. The script (JSON) is
  {"turns": [[entry, ...], ...]}
where turns[t] serves requests whose conversation already holds t assistant messages (so turn 0
answers the task prompt). Within a turn, entries are used one per request in order (the last one
repeats), so retries walk through them. An entry is one of
  {"content": "...", "finish_reason": "stop"}   a normal answer (finish_reason optional)
  {"status": 429, "body": {...}, "retry_after": 0} an HTTP error (body and Retry-After optional)
  {"delay_s": 5, ...}                              sleep first (a client timeout), then the rest
  {"raw": "{not json"}                             a 200 whose body is this text verbatim
Every request is appended to --log as a JSON line: {turn, attempt, authorization, body}.
Usage: refine_scripted_server.py --script FILE --port-file FILE --log FILE
"""
import argparse, json, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ap = argparse.ArgumentParser()
ap.add_argument("--script", required=True)
ap.add_argument("--port-file", required=True)
ap.add_argument("--log", required=True)
args = ap.parse_args()
script = json.load(open(args.script))
lock = threading.Lock()
counters = {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):  # quiet
        pass

    def reply(self, status, body, headers=()):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in headers:
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (its timeout): nothing to do

    def do_GET(self):
        self.reply(200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]}) if self.path.endswith(
            "/models") else self.reply(404, {"error": {"message": "no such path"}})

    def do_POST(self):
        n = int(self.headers.get("Content-Length", 0))
        raw = self.rfile.read(n)
        if not self.path.endswith("/chat/completions"):
            return self.reply(404, {"error": {"message": f"no such path {self.path}"}})
        try:
            body = json.loads(raw)
        except ValueError:
            return self.reply(400, {"error": {"message": "request body is not JSON"}})
        turn = sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")
        with lock:
            attempt = counters.get(turn, 0)
            counters[turn] = attempt + 1
            with open(args.log, "a") as f:
                f.write(json.dumps({"turn": turn, "attempt": attempt, "path": self.path,
                                    "authorization": self.headers.get("Authorization"), "body": body}) + "\n")
        turns = script["turns"]
        entries = turns[min(turn, len(turns) - 1)]
        e = entries[min(attempt, len(entries) - 1)]
        if e.get("delay_s"):
            time.sleep(e["delay_s"])
        if "status" in e:
            headers = [("Retry-After", str(e["retry_after"]))] if "retry_after" in e else []
            return self.reply(e["status"], e.get("body", {"error": {"message": f"scripted {e['status']}"}}), headers)
        if "raw" in e:
            return self.reply(200, e["raw"].encode())
        self.reply(200, {
            "id": f"chatcmpl-{turn}-{attempt}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model"),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": e["content"]},
                         "finish_reason": e.get("finish_reason", "stop")}],
            "usage": {"prompt_tokens": sum(len(m.get("content", "")) // 4 for m in body.get("messages", [])),
                      "completion_tokens": len(e["content"]) // 4},
        })


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(args.port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
import os  # noqa: E402
os.replace(args.port_file + ".tmp", args.port_file)
server.serve_forever()

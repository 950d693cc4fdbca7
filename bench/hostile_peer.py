#!/usr/bin/env python3
"""Hostile peers for bench/hostile (issue 21's attacks, measured, not tested):
  hostile_peer.py node PORT ROWS        a "node" answering a snapshot of ROWS minimal process rows
  hostile_peer.py prometheus PORT N     a "Prometheus" answering N process series for one instance
  hostile_peer.py range PORT CLIENTS S  CLIENTS connections asking a Range of 2,600 overlapping
                                        parts, never reading, held for S seconds
  hostile_peer.py idle PORT CLIENTS S   CLIENTS keep-alive connections that ask /healthz once and
                                        then sit idle, while one scraper asks /metrics twice a
                                        second for S seconds; prints the scraper's answers by status
"""
import http.server
import json
import socket
import socketserver
import sys
import time


def snapshot(rows):
    processes = ",".join('{"device_index":0,"pid":%d,"status":"ok"}' % (i + 1) for i in range(rows))
    return ('{"schema_version":1,"sampled_at":"2026-12-04T10:00:00Z","host":{},"devices":[{"index":0}],'
            '"processes":[' + processes + '],"devices_stale":false,"processes_stale":false,"errors":[]}').encode()


def prometheus(series):
    result = [{"metric": {"__name__": "up", "instance": "n:9499", "job": "musatop"}, "value": [0, "1"]}]
    result += [{"metric": {"__name__": "musatop_process_gpu_memory_bytes", "instance": "n:9499", "job": "musatop",
                           "gpu": "0", "pid": str(i + 1), "user": "u"}, "value": [0, "1048576"]}
               for i in range(series)]
    return json.dumps({"status": "success", "data": {"resultType": "vector", "result": result}}).encode()


def serve(port, body, paths):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            answer = body if any(self.path.startswith(p) for p in paths) else b'{"status":"success","data":{"activeTargets":[]}}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        do_POST = do_GET

        def log_message(self, *args):
            pass

    socketserver.ThreadingTCPServer.allow_reuse_address = True
    with socketserver.ThreadingTCPServer(("127.0.0.1", port), Handler) as server:
        server.serve_forever()


def range_flood(port, clients, seconds):
    ranges = ",".join(["0-"] * 2600)
    request = ("GET /api/v1/snapshot HTTP/1.1\r\nHost: x\r\nRange: bytes=%s\r\n\r\n" % ranges).encode()
    held = []
    for _ in range(clients):
        s = socket.create_connection(("127.0.0.1", port))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(request)
        held.append(s)
    time.sleep(seconds)


def idle_flood(port, clients, seconds):
    held = []
    for _ in range(clients):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        s.recv(4096)
        held.append(s)
    statuses = {}
    end = time.time() + seconds
    while time.time() < end:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            status = s.recv(64).split(b" ")[1].decode()
            s.close()
        except OSError as error:
            status = type(error).__name__
        statuses[status] = statuses.get(status, 0) + 1
        time.sleep(0.5)
    print(" ".join("%s x%d" % item for item in sorted(statuses.items())))


if __name__ == "__main__":
    mode, port = sys.argv[1], int(sys.argv[2])
    if mode == "node":
        serve(port, snapshot(int(sys.argv[3])), ["/api/v1/snapshot"])
    elif mode == "prometheus":
        serve(port, prometheus(int(sys.argv[3])), ["/api/v1/query"])
    elif mode == "range":
        range_flood(port, int(sys.argv[3]), float(sys.argv[4]))
    elif mode == "idle":
        idle_flood(port, int(sys.argv[3]), float(sys.argv[4]))

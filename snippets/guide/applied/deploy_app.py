"""A minimal HTTP inference server for an exported program, standard library only.

Serve:       python deploy_app.py classifier.pt2     (listens on port 8000)
Self-check:  python deploy_app.py                    (exports a small model, serves it on a free
                                                      local port, sends two requests, stops)
"""

import json
import sys
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import torch


def make_handler(module, n_features):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            if self.path != "/predict":
                self.send_error(404)
                return
            try:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                x = torch.tensor(body["inputs"], dtype=torch.float32)
                if x.dim() != 2 or x.shape[1] != n_features:
                    raise ValueError(f"inputs must be a list of rows of {n_features} numbers")
            except (ValueError, KeyError, TypeError) as err:
                self.send_error(400, str(err))
                return
            with torch.inference_mode():
                outputs = module(x)
            payload = json.dumps({"outputs": outputs.tolist()}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format, *args):  # one line per request would go to stderr
            pass

    return Handler


def make_server(program_path, host, port):
    module = torch.export.load(program_path).module()
    return ThreadingHTTPServer((host, port), make_handler(module, n_features=4))


def post(url, data):
    request = urllib.request.Request(url, json.dumps(data).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        make_server(sys.argv[1], "0.0.0.0", 8000).serve_forever()
    else:
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Softmax(dim=-1)).eval()
        batch = torch.export.Dim("batch", min=1, max=1024)
        program = torch.export.export(model, (torch.randn(2, 4),), dynamic_shapes=({0: batch},))
        torch.export.save(program, "classifier.pt2")

        server = make_server("classifier.pt2", "127.0.0.1", 0)  # port 0: any free port
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/predict"
        reply = post(url, {"inputs": [[0.1, 0.2, 0.3, 0.4], [1, 0, 0, 1]]})
        print("rows:", len(reply["outputs"]), "probabilities sum to 1:",
              all(abs(sum(row) - 1) < 1e-6 for row in reply["outputs"]))
        try:
            post(url, {"inputs": [[1, 2]]})
        except urllib.error.HTTPError as err:
            print("HTTPError", err.code, err.reason)
            err.close()
        server.shutdown()
        server.server_close()

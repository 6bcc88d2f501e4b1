#!/usr/bin/env python3
"""Serve a static folder on loopback, the way any static host would.

Used by `make serve` and by the browser tests. Binds 127.0.0.1 only, serves .wasm and .js with
the MIME types browsers require, and can mount the folder under a sub-path (--prefix) to prove
that the app uses relative URLs only. Prints the URL on its first line of output.
"""
import argparse
import functools
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".svg": "image/svg+xml",
    }

    def __init__(self, *args, prefix="/", quiet=False, **kwargs):
        self.prefix = prefix
        self.quiet = quiet
        super().__init__(*args, **kwargs)

    def send_head(self):
        if self.path in ("/", "") and self.prefix != "/":
            self.send_response(302)
            self.send_header("Location", self.prefix)
            self.end_headers()
            return None
        if not self.path.startswith(self.prefix):
            self.send_error(404, "Not under " + self.prefix)
            return None
        self.path = "/" + self.path[len(self.prefix):]
        return super().send_head()

    def end_headers(self):
        # Always revalidate, so a rebuilt dist/ is picked up on reload.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format, *args):
        if not self.quiet:
            super().log_message(format, *args)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("directory")
    parser.add_argument("--port", type=int, default=8080, help="0 picks a free port")
    parser.add_argument("--prefix", default="/", help="sub-path to mount the folder under")
    parser.add_argument("--quiet", action="store_true", help="do not log requests")
    args = parser.parse_args()
    prefix = "/" + args.prefix.strip("/") + "/" if args.prefix.strip("/") else "/"
    handler = functools.partial(Handler, directory=args.directory, prefix=prefix, quiet=args.quiet)
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), handler)
    except OSError as err:
        sys.exit(f"cannot listen on 127.0.0.1:{args.port}: {err.strerror}. Try another port, e.g. PORT=8081.")
    print(f"warpscope is served at http://127.0.0.1:{server.server_port}{prefix}  (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()

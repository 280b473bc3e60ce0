"""The drill's extractor host: an OpenAI-compatible chat-completions endpoint answering with
the offline rules (bench/scripted_llm.py's `rules_responder`), bound to the host's address.

    python scripts/hosts/llm_server.py ADDRESS PORT
"""

from __future__ import annotations

import sys
from http.server import ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.scripted_llm import ScriptedLLM, _handler_class, rules_responder  # noqa: E402


def main(address: str, port: int) -> None:
    server = ThreadingHTTPServer((address, port), _handler_class(ScriptedLLM(rules_responder)))
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))

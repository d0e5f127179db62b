"""A minimal Hub engine for the match runner's tests: it plays the first move a
tiny move generator would not check, so each fake only needs to misbehave."""
import sys


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def handshake_loop(on_go):
    """Answers hub/init/ping; calls on_go(nth_search) for each `go`."""
    searches = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "hub":
            send("id name=fake version=0 author=tests country=NL")
            send("wait")
        elif cmd == "init":
            send("ready")
        elif cmd == "ping":
            send("pong")
        elif cmd == "go":
            searches += 1
            on_go(searches)
        elif cmd == "quit":
            return

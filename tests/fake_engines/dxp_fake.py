"""A DXP follower for the match runner's tests, which misbehaves on its first turn
in the way its mode says. It knows no rules: it accepts every game and, when it
must move, does its one trick.

usage: dxp_fake.py (--listen PORT | --connect PORT) MODE

modes:
  illegal     plays 1-50, never a legal move
  hang        never moves (the runner's clock must end the game)
  crash       exits with status 3
  disconnect  closes the connection and stays alive
  garbage     sends bytes that are not a DXP message
  claim-draw  ends the game with GAMEEND "draw", which the rules do not support
  resign      ends the game with GAMEEND "I lose", answers the runner's GAMEEND,
              then exits as Scan 2.0 does when its connection closes: the runner
              must restart it for the next game without blaming it
  refuse      refuses every game (GAMEACC code 3)
"""
import socket
import sys
import time


def connect(how, port):
    if how == "--connect":
        return socket.create_connection(("127.0.0.1", port))
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", port))
    server.listen(1)
    conn, _ = server.accept()
    server.close()
    return conn


def frames(conn):
    """Yields each NUL-terminated message as text."""
    buf = b""
    while True:
        chunk = conn.recv(4096)
        if not chunk:
            return
        buf += chunk
        while b"\0" in buf:
            frame, buf = buf.split(b"\0", 1)
            yield frame.decode("ascii", "replace")


def send(conn, text):
    conn.sendall(text.encode("ascii") + b"\0")


def act(conn, mode):
    """Does the mode's trick on the fake's turn; True if the game went on."""
    if mode == "illegal":
        send(conn, "M0001015000")
    elif mode == "hang":
        time.sleep(3600)
    elif mode == "crash":
        sys.exit(3)
    elif mode == "disconnect":
        conn.close()
        time.sleep(3600)
    elif mode == "garbage":
        conn.sendall(b"\xff\xfe hello\0")
    elif mode == "claim-draw":
        send(conn, "E20")
    elif mode == "resign":
        send(conn, "E10")


def main():
    how, port, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    conn = connect(how, port)
    mine = to_move = None
    for msg in frames(conn):
        kind = msg[:1]
        if kind == "R":
            if mode == "refuse":
                send(conn, "A" + "fake".ljust(32) + "3")
                continue
            mine = msg[35]
            to_move = "W" if msg[42] == "A" else msg[43]
            send(conn, "A" + "fake".ljust(32) + "0")
        elif kind == "M":
            to_move = mine
        elif kind == "E":
            if mode == "resign":
                # The runner answered our GAMEEND: leave, as Scan does at a close.
                return
            send(conn, "E00")
            if msg[2:3] == "1":
                return
            mine = None
            continue
        else:
            continue
        if mine is not None and mine == to_move:
            act(conn, mode)


if __name__ == "__main__":
    main()

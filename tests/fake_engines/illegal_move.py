"""Answers every search with a move that is never legal (a man moving backwards
onto an occupied square)."""
from common import handshake_loop, send

handshake_loop(lambda n: send("done move=1-50"))

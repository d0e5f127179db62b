"""Completes the handshake, then never answers a search (but stays alive)."""
import time
from common import handshake_loop

handshake_loop(lambda n: time.sleep(3600))

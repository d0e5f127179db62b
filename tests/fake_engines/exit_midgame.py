"""Completes the handshake and then exits when asked for its first move, as a
crash would."""
import sys
from common import handshake_loop

handshake_loop(lambda n: sys.exit(3))

"""``kill -USR1 <server pid>`` prints the stack of every thread of the server to its stderr.

What a server that stopped answering is doing, without a debugger or stopping it (:mod:`faulthandler`).

>>> import signal
>>> dump_stacks_on_signal() is dump_stacks_on_signal(), dump_stacks_on_signal() == signal.SIGUSR1
(True, True)
"""

from __future__ import annotations

import faulthandler
import signal
import sys
import threading

_lock = threading.Lock()
_registered: list[signal.Signals] = []


def dump_stacks_on_signal() -> signal.Signals:
    """Register the dump on SIGUSR1 (on the first call; later calls do nothing); the signal."""
    with _lock:
        if not _registered:
            faulthandler.register(signal.SIGUSR1, file=sys.stderr, all_threads=True, chain=False)
            _registered.append(signal.SIGUSR1)
        return _registered[0]

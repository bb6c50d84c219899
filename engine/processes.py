"""Worker processes for batches of battles and games."""
from __future__ import annotations

import multiprocessing
import os
import threading


def process_context():
    """How to start workers: forking is quickest, but forking a process that runs threads (the
    editor does) can leave a worker stuck on a lock it copied; then a fork server starts them."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def available_cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1

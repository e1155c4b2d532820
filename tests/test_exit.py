"""The console entry point leaves quickly once a command is over (`generator.cli.run`): without the interpreter's
teardown, but with everything that matters done: output flushed, atexit functions run, the exit code kept, and
threads still running let finish."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def entry(body: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`generator.cli.run()` in a fresh interpreter, after `body`, with `args` as the command line."""
    code = textwrap.dedent(body) + textwrap.dedent(f"""
        import sys
        import generator.cli
        sys.argv = ["donjon", *{list(args)!r}]
        generator.cli.run()
        print("not reached")
    """)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_output_is_flushed_and_atexit_functions_run() -> None:
    done = entry("""
        import atexit
        atexit.register(lambda: print("atexit ran", flush=True))
    """, "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("donjon ") and done.stdout.endswith("atexit ran\n")
    assert "not reached" not in done.stdout


def test_the_exit_code_is_kept() -> None:
    done = entry("", "build", "no-such-deck")
    assert done.returncode == 2 and "names no game or deck" in done.stderr


def test_a_thread_still_running_is_let_finish() -> None:
    done = entry("""
        import threading, time
        def late():
            time.sleep(0.5)
            print("the thread finished", flush=True)
        threading.Thread(target=late).start()
    """, "--version")
    assert done.returncode == 0 and "the thread finished" in done.stdout


def test_a_program_calling_main_goes_on() -> None:
    """`main` ends with SystemExit, which a program that embeds donjon can catch; only `run` ends the process."""
    code = textwrap.dedent("""
        import sys
        import generator.cli
        sys.argv = ["donjon", "--version"]
        try:
            generator.cli.main()
        except SystemExit as done:
            print("caught", done.code)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.endswith("caught 0\n")

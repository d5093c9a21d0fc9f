"""Runs the browser tests (scripts/web-test): test_demo, test_endpoint, test_window and test_turn, with
one browser and one umockdev testbed for all of them."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

if __name__ == "__main__":
    harness.run(["test_demo", "test_endpoint", "test_window", "test_turn"])

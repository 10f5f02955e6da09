"""Built programs go to the repository's build/, not the user's ~/.cache (shared with lit)."""

import os
from pathlib import Path

os.environ.setdefault("IPU_LOWER_CACHE", str(Path(__file__).resolve().parents[1] / "build" / "test-cache"))

"""Prints where `make install` puts the Python module under PREFIX (argv[1]),
relative to PREFIX: the directory under PREFIX/lib that this python3 already
reads (Debian's reads /usr/local/lib/python3.X/dist-packages), else the
prefix's site-packages as python3 lays out a prefix (what pip install
--prefix uses), which a user puts in PYTHONPATH."""
import sys
import sysconfig

prefix = sys.argv[1].rstrip("/")
read = [p for p in sys.path if p.startswith(prefix + "/lib/") and p.endswith("-packages")]
if read:
    print(read[0][len(prefix) + 1:])
else:
    print(sysconfig.get_path("purelib", "posix_prefix", vars={"base": "", "platbase": ""}).lstrip("/"))

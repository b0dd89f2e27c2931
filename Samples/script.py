#!/usr/bin/env python3
"""Print the sizes of the files named on the command line."""
import os
import sys


def main(paths):
    for path in paths:
        print(f"{os.path.getsize(path):>10}  {path}")


if __name__ == "__main__":
    main(sys.argv[1:])

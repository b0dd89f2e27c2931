#!/bin/sh
set -eu
swift build -c release

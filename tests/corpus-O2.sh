#!/bin/sh
# Corpus differential test at -O2 (see tests/corpus.sh).
OSP_CORPUS_LEVEL=-O2
. "$(dirname "$0")/corpus.sh"

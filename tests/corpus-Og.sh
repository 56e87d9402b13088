#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Corpus differential test at -Og (see tests/corpus.sh).
OSP_CORPUS_LEVEL=-Og
. "$(dirname "$0")/corpus.sh"

# SPDX-License-Identifier: GPL-3.0-or-later
# tests/progs/big-function.awk - write a C program with one huge function:
#     awk -v cases=N -f tests/progs/big-function.awk > big.c
# work() is a loop round a switch of N cases, each case two nested loops
# round a branch (about 10 basic blocks a case: tens of thousands of blocks
# for a few thousand cases).  It is what generated code looks like to osp
# (a lexer's or an interpreter's dispatch): many small loops, each one
# versionable, in one function.  tests/compile-budget.sh compiles it plain
# and with osp and compares the compile time, the memory and the output.
BEGIN {
  if (cases < 1)
    cases = 3000
  print "#include <stdio.h>"
  print "static unsigned long"
  print "work (unsigned n, unsigned long s)"
  print "{"
  print "  for (unsigned it = 0; it < n; it++)"
  print "    {"
  printf "      switch ((s >> 17) %% %d)\n", cases
  print "        {"
  for (k = 0; k < cases; k++)
    {
      printf "        case %d:\n", k
      print  "          for (unsigned i = 0; i < (unsigned) (s & 7); i++)"
      printf "            for (unsigned j = 0; j < %d; j++)\n", 2 + k % 3
      printf "              if ((s >> (j + i)) & 1)\n"
      printf "                s += %dul + j;\n", k * 7 + 1
      printf "              else\n"
      printf "                s ^= s >> %d;\n", 1 + k % 13
      print  "          break;"
    }
  print "        }"
  print "      s = s * 6364136223846793005ul + 1442695040888963407ul;"
  print "    }"
  print "  return s;"
  print "}"
  print ""
  print "int"
  print "main (void)"
  print "{"
  print "  printf (\"%lu\\n\", work (200000, 1));"
  print "  return 0;"
  print "}"
}

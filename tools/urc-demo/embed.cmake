# SPDX-License-Identifier: MIT
# cmake -DIN=<file> -DOUT=<header> -DNAME=<symbol> -P embed.cmake
# Writes <header>: the bytes of <file> as `static const unsigned char <symbol>[]`, 16 a line.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" digits)
math(EXPR bytes "${digits} / 2")
set(body "")
set(at 0)
while(at LESS digits)
  string(SUBSTRING "${hex}" ${at} 32 line)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," line "${line}")
  string(APPEND body "    ${line}\n")
  math(EXPR at "${at} + 32")
endwhile()
file(WRITE "${OUT}" "// Generated from ${IN} by embed.cmake; do not edit.\n"
                    "static const unsigned char ${NAME}[${bytes}] = {\n${body}};\n"
                    "static const size_t ${NAME}_size = ${bytes};\n")

#!/bin/sh
# Stand-in for Prisma's native schema engine, which cannot be downloaded here.
# Its presence stops the CLI from trying; generate never runs it. Migrations use the
# WebAssembly engine instead (packages/db/src/migrations).
exit 1

#!/bin/sh
# A stand-in browser for Tests/ChromiumBridgeTests/DevToolsErrorTests.swift. It is run
# through a symbolic link whose name says how to misbehave, so no test writes an executable
# file and then runs it (a write still open in a process another test forked made that
# fail with "Text file busy"). fd 4 is the DevTools pipe towards the client.
case "$(basename "$0")" in
  *exits-at-once*) exit 0 ;;
  *sends-garbage*) printf 'this is not json\000' >&4; sleep 5 ;;
  *refuses*) printf '{"id":1,"error":{"code":-32000,"message":"no targets today"}}\000' >&4; sleep 5 ;;
  *huge-reply-id*) printf '{"id":1e300,"result":{}}\000{"id":0.5,"result":{}}\000{"id":1,"error":{"code":-32000,"message":"no targets today"}}\000' >&4; sleep 5 ;;
  *) echo "fake-browser: unknown behaviour $(basename "$0")" >&2; exit 2 ;;
esac

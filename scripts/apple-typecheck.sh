#!/usr/bin/env bash
# Type-checks the portable modules for Apple platforms on a Linux machine (no Mac, no SDK).
#
#   scripts/apple-typecheck.sh               InkCore, HitTestBridge, InkTesting, InkRecording, SessionReplay, InkHost
#                                            and InkUIKit for iOS 17 (arm64) and macOS 14 (x86_64;
#                                            InkUIKit is empty there), ChromiumBridge and ink-replay
#                                            for macOS 14, InkUIKit again against the iOS 17 SDK's
#                                            WebKit; then eight planted-regression self-tests
#   scripts/apple-typecheck.sh --no-self-test   the checks alone
#
# How: the toolchain's own textual interfaces of the standard library and Swift concurrency
# (lib/swift_static/linux/*.swiftmodule/*.swiftinterface) carry Apple's availability
# annotations (`@available(macOS 15.0, iOS 18.0, …)`), whatever platform the toolchain was
# built for. This script rebuilds those modules for each Apple target, builds the small
# Foundation and Darwin stand-ins in scripts/apple-typecheck/, and for iOS the CoreGraphics,
# UIKit and WebKit stand-ins (only what our code uses, each declaration annotated with the
# availability and main-actor isolation Apple documents), then compiles every source
# file of each module for the Apple target with the package's own settings, warnings as
# errors. What it can and cannot catch: scripts/apple-typecheck/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
self_test=1
[ "${1:-}" = "--no-self-test" ] && self_test=0

swift_bin=$(dirname "$(command -v swiftc)")
toolchain_lib="$swift_bin/../lib/swift"
interfaces="$swift_bin/../lib/swift_static/linux"
[ -d "$interfaces/Swift.swiftmodule" ] || { echo "apple-typecheck: no standard-library interfaces under $interfaces" >&2; exit 1; }
stand_ins="$root/scripts/apple-typecheck"
work="$root/.build-apple"
mkdir -p "$work"

# The package's settings for its own targets (Package.swift: strictSettings, Swift 6).
package_flags=(-swift-version 6 -package-name scratchpadink -DSWIFT_PACKAGE -warnings-as-errors
               -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility)

# prepare TARGET PLATFORM_DIR MODULE_TRIPLE: a resource directory holding the standard
# library, concurrency and string-processing modules for TARGET, and the stand-ins.
prepare() {
  local target=$1 platform=$2 triple=$3
  local dir="$work/$target" res="$work/$target/resources" stamp="$work/$target/.toolchain"
  local version; version=$(swiftc --version 2>&1 | head -1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$version" ]; then
    :
  else
    rm -rf "$dir" && mkdir -p "$res/$platform" "$dir/interfaces"
    ln -s "$toolchain_lib/clang" "$res/clang"
    # SwiftShims declares the Float80 helpers for x86 only; the x86_64 interface uses them.
    # On arm64 Float80 does not exist for user code either way; declaring the helpers lets
    # the interface build (they are never called from our code).
    cp -R "$toolchain_lib/shims" "$res/shims"
    sed -i 's/(defined __i386__ || defined __x86_64__)/(defined __i386__ || defined __x86_64__ || defined __aarch64__)/' "$res/shims/LibcShims.h"
    local module
    for module in Swift _Concurrency SwiftOnoneSupport _RegexParser _StringProcessing; do
      mkdir -p "$res/$platform/$module.swiftmodule"
      # Retarget the interface. `@backDeployed` bodies are not in the interface; dropping the
      # attribute keeps the declaration's own (lower) `@available`, which is what callers see.
      sed "3s/-target x86_64-unknown-linux-gnu/-target $target/; /^ *@backDeployed(/d" \
        "$interfaces/$module.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface" > "$dir/interfaces/$module.swiftinterface"
      local extra=()
      [ "$module" = Swift ] && extra=(-parse-stdlib)
      # The library's own inlinable code is not what we check: availability checking is off
      # while building it, and on (strictly) for our sources below.
      swiftc -frontend -compile-module-from-interface "$dir/interfaces/$module.swiftinterface" \
        -module-name "$module" "${extra[@]}" -disable-availability-checking \
        -target "$target" -resource-dir "$res" \
        -o "$res/$platform/$module.swiftmodule/$triple.swiftmodule" >"$dir/$module.log" 2>&1 \
        || { cat "$dir/$module.log"; echo "apple-typecheck: could not build $module for $target" >&2; exit 1; }
    done
    echo "$version" > "$stamp"
  fi
  # An empty SDK: no headers, no modules, only the settings file the driver reads.
  local v=${target##*[a-z]} map=""
  [ "$platform" = macosx ] && map=", \"VersionMap\": {\"macOS_iOSMac\": {\"$v\": \"$v\"}, \"iOSMac_macOS\": {\"$v\": \"$v\"}}"
  mkdir -p "$dir/sdk"
  printf '{"Version": "%s", "MaximumDeploymentTarget": "%s.99", "CanonicalName": "%s%s", "DisplayName": "%s %s"%s}\n' \
    "$v" "$v" "$platform" "$v" "$platform" "$v" "$map" > "$dir/sdk/SDKSettings.json"
  # The stand-ins are rebuilt every time (they are ours and small).
  rm -rf "$dir/modules" && mkdir -p "$dir/modules"
  compile "$target" Darwin -parse-as-library -enable-library-evolution "$stand_ins/Darwin.swift"
  compile "$target" Foundation -parse-as-library -enable-library-evolution "$stand_ins/Foundation.swift"
  # UIKit exists on iOS only: on macOS `canImport(UIKit)` stays false, as with Apple's SDK.
  if [ "$platform" = iphoneos ]; then
    compile "$target" CoreGraphics -parse-as-library -swift-version 6 -enable-library-evolution "$stand_ins/CoreGraphics.swift"
    # UIKit is a Swift overlay on a Clang module of the same name, as in Apple's SDK, so that
    # its submodule `UIKit.UIGestureRecognizerSubclass` can be imported (UIKitClang/).
    cp "$stand_ins"/UIKitClang/* "$dir/modules/"
    compile "$target" UIKit -parse-as-library -swift-version 6 -enable-library-evolution -import-underlying-module "$stand_ins/UIKit.swift" "$stand_ins/UIKit+FrontEnd.swift"
    compile "$target" WebKit -parse-as-library -swift-version 6 -enable-library-evolution "$stand_ins/WebKit.swift"
  fi
}

# compile TARGET MODULE FLAGS… FILES…: emits MODULE for TARGET from the given files.
compile() {
  local target=$1 module=$2; shift 2
  local dir="$work/$target"
  local into="${modules:-$dir/modules}"   # `modules=DIR compile …` builds against, and into, DIR
  # Objective-C interop is off, as in the standard library built above (its Linux interface
  # has none); no file of ours uses @objc or Objective-C bridging.
  swiftc -emit-module -wmo -module-name "${module//-/_}" -target "$target" -Xfrontend -disable-objc-interop \
    -resource-dir "$dir/resources" -sdk "$dir/sdk" -I "$into" \
    -emit-module-path "$into/${module//-/_}.swiftmodule" "$@"
}

# check TARGET MODULE [EXTRA FILES…]: type-checks every Swift file of Sources/MODULE.
check() {
  local target=$1 module=$2; shift 2
  local files=()
  while IFS= read -r -d '' file; do files+=("$file"); done < <(find "Sources/$module" -name '*.swift' -print0 | sort -z)
  local kind=(-parse-as-library)
  [ -f "Sources/$module/main.swift" ] && kind=()
  if compile "$target" "$module" "${kind[@]}" "${package_flags[@]}" "${files[@]}" "$@"; then
    echo "apple-typecheck: $module type-checks for $target"
  else
    echo "apple-typecheck: $module does NOT type-check for $target" >&2
    return 1
  fi
}

# SwiftPM generates `Bundle.module` for a target with resources; this is its Darwin form,
# with the target's bundle name.
accessor() {
  local out="$work/accessors/$1.swift"
  mkdir -p "$work/accessors"
  sed "s/ScratchpadInk_HitTestBridge/ScratchpadInk_$1/" "$stand_ins/ResourceBundleAccessor.swift" > "$out"
  echo "$out"
}

status=0
for spec in "arm64-apple-ios17.0 iphoneos arm64-apple-ios" "x86_64-apple-macosx14.0 macosx x86_64-apple-macos"; do
  read -r target platform triple <<<"$spec"
  prepare "$target" "$platform" "$triple"
  check "$target" InkCore || status=1
  check "$target" HitTestBridge "$(accessor HitTestBridge)" || status=1
  check "$target" InkTesting || status=1
  check "$target" InkRecording "$(accessor InkRecording)" || status=1
  check "$target" SessionReplay || status=1
  check "$target" InkHost || status=1
  check "$target" InkUIKit "$(accessor InkUIKit)" || status=1
  if [ "$platform" = iphoneos ]; then
    # InkUIKit again, against the iOS 17 SDK's WebKit (Xcode 15), which has no main-actor
    # annotation (later SDKs add them): no isolation on `WKScriptMessageHandler`,
    # `WKNavigationDelegate`, `WKScriptMessage` (so not `Sendable`) and WebKit's other
    # NSObject classes, a plain `evaluateJavaScript` handler. InkUIKit must compile with both.
    sdk17="$work/$target/modules-ios17-sdk"
    rm -rf "$sdk17" && cp -R "$work/$target/modules" "$sdk17"
    modules="$sdk17" compile "$target" WebKit -parse-as-library -swift-version 6 -enable-library-evolution \
      -D IOS17_SDK_WEBKIT "$stand_ins/WebKit.swift"
    if modules="$sdk17" check "$target" InkUIKit "$(accessor InkUIKit)" >"$work/ios17-sdk.log" 2>&1; then
      echo "apple-typecheck: InkUIKit type-checks for $target with the iOS 17 SDK's WebKit (no main-actor annotations)"
    else
      cat "$work/ios17-sdk.log" >&2
      echo "apple-typecheck: InkUIKit does NOT type-check with the iOS 17 SDK's WebKit (no main-actor annotations)" >&2
      status=1
    fi
  fi
  if [ "$platform" = macosx ]; then
    check "$target" ChromiumBridge || status=1
    check "$target" ink-replay || status=1
  fi
done
[ $status -eq 0 ] || exit 1

if [ $self_test -eq 1 ]; then
  # The check must be able to fail: plant an unguarded API newer than iOS 17 (the one this
  # check was written for) in a copy of InkCore's sources and expect the type-check to refuse it.
  planted="$work/planted/PlantedRegression.swift"
  mkdir -p "$(dirname "$planted")"
  printf 'func plantedDecode(_ bytes: [UInt8]) -> String? {\n    guard let text = String(validating: bytes, as: UTF8.self) else { return nil }\n    return text\n}\n' > "$planted"
  if check arm64-apple-ios17.0 InkCore "$planted" 2>"$work/planted/log"; then
    echo "apple-typecheck: self-test FAILED: an unguarded String(validating:as:) type-checked for iOS 17" >&2
    exit 1
  fi
  grep -q "PlantedRegression.swift:2:.*'init(validating:as:)' is only available in iOS 18.0 or newer" "$work/planted/log" \
    || { cat "$work/planted/log"; echo "apple-typecheck: self-test FAILED: refused, but not at the planted line" >&2; exit 1; }
  echo "apple-typecheck: self-test passed: an unguarded String(validating:as:) is refused for iOS 17"

  # The UIKit stand-in must carry main-actor isolation: a copy of InkUIKit's recognizer with
  # a nonisolated function reading UITouch.location(in:) must be refused in Swift 6 mode.
  original="Sources/InkUIKit/TouchObservingRecognizer.swift"
  copy="$work/planted/TouchObservingRecognizer.swift"
  sed '$d' "$original" > "$copy"   # all but the closing #endif
  planted_line=$(( $(wc -l < "$copy") + 2 ))
  printf 'nonisolated func plantedTouchPoint(_ touch: UITouch, in view: UIView) -> CGPoint {\n    touch.location(in: view)\n}\n#endif\n' >> "$copy"
  files=()
  while IFS= read -r -d '' file; do [ "$file" = "$original" ] || files+=("$file"); done < <(find Sources/InkUIKit -name '*.swift' -print0 | sort -z)
  if compile arm64-apple-ios17.0 InkUIKit -parse-as-library "${package_flags[@]}" "${files[@]}" "$copy" "$(accessor InkUIKit)" 2>"$work/planted/uikit-log"; then
    echo "apple-typecheck: self-test FAILED: a nonisolated read of UITouch.location(in:) type-checked" >&2
    exit 1
  fi
  grep -q "TouchObservingRecognizer.swift:$planted_line:.*main actor-isolated instance method 'location(in:)'" "$work/planted/uikit-log" \
    || { cat "$work/planted/uikit-log"; echo "apple-typecheck: self-test FAILED: refused, but not at the planted line" >&2; exit 1; }
  echo "apple-typecheck: self-test passed: a nonisolated read of UITouch.location(in:) is refused (main actor)"

  # The iOS 17 SDK's WebKit (-D IOS17_SDK_WEBKIT) must refuse what Xcode 15 refuses, and the
  # default (iOS 18) WebKit accept it: the model, not the plant, makes the difference.
  ios=arm64-apple-ios17.0
  sdk17="$work/$ios/modules-ios17-sdk" sdk18="$work/$ios/modules"
  # plant INTO LOG ORIGINAL COPY [MORE FILES…]: InkUIKit with COPY in place of ORIGINAL,
  # compiled against the modules in INTO.
  plant() {
    local into=$1 log=$2 original=$3 copy=$4; shift 4
    local files=()
    while IFS= read -r -d '' file; do [ "$file" = "$original" ] || files+=("$file"); done < <(find Sources/InkUIKit -name '*.swift' -print0 | sort -z)
    modules="$into" compile "$ios" InkUIKit -parse-as-library "${package_flags[@]}" "${files[@]}" "$copy" "$(accessor InkUIKit)" "$@" 2>"$log"
  }
  # expect_refused STATUS NAME LOG PATTERN: the plant was refused (STATUS), with PATTERN (a
  # grep pattern: Swift 6.0's wording of an isolated witness, "cannot be used to satisfy
  # nonisolated requirement", or later compilers', "crosses into main actor-isolated code").
  expect_refused() {
    local status=$1 name=$2 log=$3 pattern=$4
    [ "$status" -ne 0 ] || { echo "apple-typecheck: self-test FAILED: $name type-checked" >&2; exit 1; }
    grep -q -- "$pattern" "$log" || { cat "$log"; echo "apple-typecheck: self-test FAILED: $name refused, but not for: $pattern" >&2; exit 1; }
  }
  # only_ios17_refuses NAME LOG ORIGINAL COPY PATTERN PASSED: the plant (COPY, in place of
  # ORIGINAL, or an extra file when ORIGINAL is empty) is refused by the iOS 17 SDK's WebKit
  # with PATTERN and accepted by the iOS 18 SDK's: the model makes the difference.
  only_ios17_refuses() {
    local name=$1 log=$2 original=$3 copy=$4 pattern=$5 passed=$6 st=0
    plant "$sdk17" "$log" "$original" "$copy" || st=$?
    expect_refused $st "$name" "$log" "$pattern"
    plant "$sdk18" "$log-18" "$original" "$copy" \
      || { cat "$log-18"; echo "apple-typecheck: self-test FAILED: $name is refused by the iOS 18 model too" >&2; exit 1; }
    echo "apple-typecheck: self-test passed: $passed"
  }
  original="Sources/InkUIKit/WKWebViewPageOracle.swift"

  # 1. The message captured into the main actor's closure without its box (the handler as it
  # was): WKScriptMessage is not Sendable in the iOS 17 SDK.
  copy="$work/planted/WKWebViewPageOracle.swift"
  sed '/let delivered = MainThreadMessage(message: message)/d; /let message = delivered.message/d' "$original" > "$copy"
  ! grep -q 'MainThreadMessage(message: message)\|delivered.message' "$copy" && grep -q 'received(message)' "$copy" \
    || { echo "apple-typecheck: self-test FAILED: nothing to plant in $original" >&2; exit 1; }
  only_ios17_refuses "a script message captured unboxed" "$work/planted/message-log" "$original" "$copy" \
    "WKWebViewPageOracle.swift:.*sending 'message' risks causing data races" \
    "a script message captured unboxed is refused with the iOS 17 SDK's WebKit (not Sendable), accepted with the iOS 18 SDK's"

  # 2. A main-actor witness for the iOS 17 SDK's nonisolated WKScriptMessageHandler.
  sed 's/^    nonisolated func userContentController(/    func userContentController(/' "$original" > "$copy"
  grep -q '^    func userContentController(' "$copy" || { echo "apple-typecheck: self-test FAILED: nothing to plant in $original" >&2; exit 1; }
  only_ios17_refuses "a main-actor message handler" "$work/planted/handler-log" "$original" "$copy" \
    "WKWebViewPageOracle.swift:.*\(conformance of 'ScriptMessageDispatcher' to protocol 'WKScriptMessageHandler' crosses into main actor-isolated code\|cannot be used to satisfy nonisolated requirement from protocol 'WKScriptMessageHandler'\)" \
    "a main-actor WKScriptMessageHandler witness is refused with the iOS 17 SDK's WebKit, accepted with the iOS 18 SDK's"

  # 3. A main-actor navigation delegate (InkUIKit has none; an app's would be refused so).
  extra="$work/planted/PlantedNavigationDelegate.swift"
  printf '#if canImport(UIKit) && canImport(WebKit)\nimport WebKit\n@MainActor final class PlantedNavigationDelegate: NSObject, WKNavigationDelegate {\n    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {}\n}\n#endif\n' > "$extra"
  only_ios17_refuses "a main-actor WKNavigationDelegate" "$work/planted/navigation-log" "" "$extra" \
    "PlantedNavigationDelegate.swift:[34]:.*\(conformance of 'PlantedNavigationDelegate' to protocol 'WKNavigationDelegate' crosses into main actor-isolated code\|cannot be used to satisfy nonisolated requirement from protocol 'WKNavigationDelegate'\)" \
    "a main-actor WKNavigationDelegate is refused with the iOS 17 SDK's WebKit, accepted with the iOS 18 SDK's"

  # 4. What the follower, the dispatcher and the overlay read, as Apple declares it:
  # `isLoading` is read-only (observed by KVO, never set), `WKScriptMessage.webView` optional
  # (weak), `UIScrollView.isZooming` read-only (the overlay reads whether a pinch is on).
  extra="$work/planted/PlantedWebKitReads.swift"
  printf '#if canImport(UIKit) && canImport(WebKit)\nimport WebKit\n@MainActor func plantedReads(_ webView: WKWebView, _ message: WKScriptMessage) {\n    webView.isLoading = false\n    let sender: WKWebView = message.webView\n    _ = sender\n    webView.scrollView.isZooming = false\n}\n#endif\n' > "$extra"
  st=0; plant "$sdk18" "$work/planted/reads-log" "" "$extra" || st=$?
  expect_refused $st "setting isLoading" "$work/planted/reads-log" "PlantedWebKitReads.swift:4:.*'isLoading' is a get-only property"
  expect_refused $st "a non-optional WKScriptMessage.webView" "$work/planted/reads-log" "PlantedWebKitReads.swift:5:.*must be unwrapped"
  expect_refused $st "setting isZooming" "$work/planted/reads-log" "PlantedWebKitReads.swift:7:.*'isZooming' is a get-only property"
  echo "apple-typecheck: self-test passed: WKWebView.isLoading and UIScrollView.isZooming are read-only, WKScriptMessage.webView optional (weak)"

  # 5. UIKit's enums are open, as Apple's `NS_ENUM`s import (the stand-ins are built with
  # library evolution, as Apple's frameworks are): the overlay's pass-through rule over
  # `UIEvent.EventType` written as an exhaustive switch with no `default` must be refused.
  original="Sources/InkUIKit/InkOverlayView.swift"
  copy="$work/planted/InkOverlayView.swift"
  sed 's/^        default: false$/        case .touches, .motion, .remoteControl, .presses: false/' "$original" > "$copy"
  grep -q 'case .touches, .motion, .remoteControl, .presses: false' "$copy" \
    || { echo "apple-typecheck: self-test FAILED: nothing to plant in $original" >&2; exit 1; }
  st=0; plant "$sdk18" "$work/planted/event-log" "$original" "$copy" || st=$?
  expect_refused $st "an exhaustive switch over UIEvent.EventType" "$work/planted/event-log" \
    "InkOverlayView.swift:.*switch covers known cases, but 'UIEvent.EventType' may have additional unknown values"
  echo "apple-typecheck: self-test passed: a switch over UIEvent.EventType without default is refused (an open enum)"

  # The Darwin stand-in models the SDKs before macOS 15.4 (Xcode 16.0-16.2): `mach_task_self_`
  # is a plain global var there, which Swift 6 refuses to read. ink-replay with the read put
  # back must be refused.
  original="Sources/ink-replay/System.swift"
  copy="$work/planted/System.swift"
  sed 's/task_info(taskSelf,/task_info(mach_task_self_,/' "$original" > "$copy"
  grep -q 'task_info(mach_task_self_,' "$copy" || { echo "apple-typecheck: self-test FAILED: nothing to plant in $original" >&2; exit 1; }
  files=()
  while IFS= read -r -d '' file; do [ "$file" = "$original" ] || files+=("$file"); done < <(find Sources/ink-replay -name '*.swift' -print0 | sort -z)
  if compile x86_64-apple-macosx14.0 ink-replay "${package_flags[@]}" "${files[@]}" "$copy" 2>"$work/planted/mach-log"; then
    echo "apple-typecheck: self-test FAILED: a read of mach_task_self_ type-checked in Swift 6" >&2
    exit 1
  fi
  grep -q "System.swift:.*reference to var 'mach_task_self_' is not concurrency-safe" "$work/planted/mach-log" \
    || { cat "$work/planted/mach-log"; echo "apple-typecheck: self-test FAILED: refused, but not for mach_task_self_" >&2; exit 1; }
  echo "apple-typecheck: self-test passed: a read of mach_task_self_ is refused (the SDKs before macOS 15.4)"
fi

import CWebKitGTK
import Foundation

/// One WebKit user content manager and what the page side installs in it, once: the page
/// script (a user script at document start in the `scratchpad-ink` world) and the message
/// handler in that world. Web views made from one manager (``WebKitGTKPage/init(sharingUserContentWith:)``,
/// the twin of `WKWebView`s sharing a `WKUserContentController`) post through the one
/// handler, and WebKitGTK's `script-message-received` does not say which view posted. The
/// message says which document it comes from (the page script's `document` field, the
/// document rule), so each message goes to the page whose web view shows that document:
///
/// - with one page on the manager, every message is that page's;
/// - with more, a message names a document; the page known to show it gets it. A document
///   no page is known to show yet (a page's first message, or one after a navigation) is
///   looked up: every page's web view is asked which document it shows (evaluated in the
///   page script's world), and the message is held until the answer, at most
///   ``heldLimit`` messages (the oldest dropped beyond, counted in ``droppedMessages``);
/// - a message that names no document cannot be placed, and is dropped and counted
///   (``unplacedMessages``): the page script names its document in every message.
///
/// The handler is unregistered, and the script removed, when the last page leaves.
/// Use on the GTK thread only.
final class SharedUserContent {
    /// The manager (a reference held until the last page leaves).
    let manager: UnsafeMutablePointer<WebKitUserContentManager>
    private let world: String
    private let handler: String
    private struct Attached {
        weak var page: WebKitGTKPage?
        /// The documents its web view was seen to show, newest last (at most 16).
        var documents: [String] = []
        var asking = false
    }
    private var pages: [Attached] = []
    private var held: [(document: String, bytes: [UInt8])] = []
    /// The most messages held while their document is looked up.
    static let heldLimit = 1_000
    /// Messages dropped because more than ``heldLimit`` waited.
    private(set) var droppedMessages = 0
    /// Messages that named no document while more than one page shared the manager.
    private(set) var unplacedMessages = 0

    init(pageScript source: String, world: String, handler: String) {
        self.world = world
        self.handler = handler
        manager = webkit_user_content_manager_new()
        let me = Unmanaged.passUnretained(self).toOpaque()
        // Connected before the handler is registered, as WebKit recommends.
        _ = (scratchpad_connect(manager, "script-message-received::\(handler)", unsafeBitCast(
            { (_: UnsafeMutableRawPointer?, result: OpaquePointer?, context: UnsafeMutableRawPointer?) in
                guard let result, let context else { return }
                Unmanaged<SharedUserContent>.fromOpaque(context).takeUnretainedValue().received(result)
            } as @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void,
            to: GCallback.self), me))
        webkit_user_content_manager_register_script_message_handler_in_world(manager, handler, world)
        let script = webkit_user_script_new_for_world(
            source, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, world, nil, nil)
        webkit_user_content_manager_add_script(manager, script)
        webkit_user_script_unref(script)
    }

    deinit {
        let me = Unmanaged.passUnretained(self).toOpaque()
        g_signal_handlers_disconnect_matched(manager, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, me)
        webkit_user_content_manager_unregister_script_message_handler_in_world(manager, handler, world)
        webkit_user_content_manager_remove_all_scripts(manager)
        g_object_unref(manager)
    }

    /// How many pages share the manager now.
    var pageCount: Int { pages.count { $0.page != nil } }

    func attach(_ page: WebKitGTKPage) {
        pages.removeAll { $0.page == nil }
        pages.append(Attached(page: page))
    }

    func detach(_ page: WebKitGTKPage) {
        pages.removeAll { $0.page == nil || $0.page === page }
    }

    private func received(_ result: OpaquePointer) {
        let value = webkit_javascript_result_get_js_value(result)
        let bytes: [UInt8]
        if let value, jsc_value_is_string(value) != 0, let text = jsc_value_to_string(value) {
            bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text)))
            g_free(text)
        } else {
            bytes = []  // not a string: the bridge refuses it like any malformed message
        }
        pages.removeAll { $0.page == nil }
        if pages.count == 1, let only = pages[0].page {
            only.received(bytes)
            return
        }
        guard let document = Self.document(named: bytes) else {
            unplacedMessages += 1
            return
        }
        if let index = pages.lastIndex(where: { $0.documents.contains(document) }), let page = pages[index].page {
            page.received(bytes)
            return
        }
        held.append((document, bytes))
        if held.count > Self.heldLimit {
            held.removeFirst(held.count - Self.heldLimit)
            droppedMessages += 1
        }
        askEveryPage()
    }

    /// Asks each page's web view which document it shows (in the page script's world).
    private func askEveryPage() {
        for index in pages.indices where !pages[index].asking {
            guard let page = pages[index].page else { continue }
            pages[index].asking = true
            page.evaluate("window.scratchpadInk ? window.scratchpadInk.document : null") { [weak self, weak page] result in
                guard let self, let page else { return }
                guard let at = pages.firstIndex(where: { $0.page === page }) else { return }
                pages[at].asking = false
                guard case let .success(json?) = result, let document = Self.string(fromJSON: json) else { return }
                if !pages[at].documents.contains(document) {
                    pages[at].documents.append(document)
                    if pages[at].documents.count > 16 { pages[at].documents.removeFirst() }
                }
                deliverHeld(for: document, to: page)
            }
        }
    }

    /// Delivers the held messages of `document` to `page`, in the order they came.
    private func deliverHeld(for document: String, to page: WebKitGTKPage) {
        var kept: [(document: String, bytes: [UInt8])] = []
        var mine: [[UInt8]] = []
        for message in held {
            if message.document == document { mine.append(message.bytes) } else { kept.append(message) }
        }
        held = kept
        for bytes in mine { page.received(bytes) }
    }

    /// The `document` field of a message, when it is an object naming one (read with
    /// Foundation's parser; the bridge validates the message itself later).
    static func document(named bytes: [UInt8]) -> String? {
        guard !bytes.isEmpty, let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return nil }
        return object["document"] as? String
    }

    /// A JSON string's text (an evaluation's result is JSON).
    static func string(fromJSON json: String) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)) as? String
    }
}

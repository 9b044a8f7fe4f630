@testable import HitTestBridge
@_spi(Tooling) import InkCore
import Testing

/// `HeldTools` keeps the touch named last beside its map, so that a log's lines, which mostly
/// follow one touch, find its tool without hashing. Checked against the plain map it was
/// before (kept here as the reference) over random interleavings, forgetting at the limit
/// included.
@Suite struct HeldToolsTests {
    /// The map without the shortcut (HeldTools as of 725ad65).
    struct Reference {
        var tools: [PlatformTouchID: (tool: ToolKind, serial: Int)] = [:]
        var order: [(touch: PlatformTouchID, serial: Int)] = []
        var orderStart = 0
        var serial = 0
        var hasForgotten = false

        func tool(of touch: PlatformTouchID) -> ToolKind? { tools[touch]?.tool }

        mutating func began(_ touch: PlatformTouchID, tool: ToolKind) {
            tools[touch] = nil
            remember(touch, tool: tool)
        }

        mutating func remember(_ touch: PlatformTouchID, tool: ToolKind) {
            if tools[touch] != nil {
                tools[touch]!.tool = tool
                return
            }
            serial += 1
            tools[touch] = (tool, serial)
            order.append((touch, serial))
            while tools.count > HeldTools.limit, orderStart < order.count {
                let oldest = order[orderStart]
                orderStart += 1
                if tools[oldest.touch]?.serial == oldest.serial {
                    tools[oldest.touch] = nil
                    hasForgotten = true
                }
            }
            if order.count - orderStart > 2 * HeldTools.limit || orderStart > HeldTools.limit {
                order = order[orderStart...].filter { tools[$0.touch]?.serial == $0.serial }
                orderStart = 0
            }
        }

        mutating func ended(_ touch: PlatformTouchID) { tools[touch] = nil }
    }

    @Test(arguments: [(UInt64(1), 8), (2, 64), (3, 6_000)])
    func agreesWithThePlainMap(seed: UInt64, touches: Int) {
        var random = SplitMix64(seed: seed)
        var held = HeldTools()
        var reference = Reference()
        let tools: [ToolKind] = [.pencil, .finger]
        var disagreements = 0
        var current = PlatformTouchID(0)
        for step in 0..<40_000 {
            // Mostly the same touch again (as a log's lines are), sometimes another one.
            if random.next() % 4 == 0 { current = PlatformTouchID(random.next() % UInt64(touches)) }
            let tool = tools[Int(random.next() % 2)]
            switch random.next() % 10 {
            case 0:
                held.began(current, tool: tool)
                reference.began(current, tool: tool)
            case 1:
                held.ended(current)
                reference.ended(current)
            case 2...5:
                held.remember(current, tool: tool)
                reference.remember(current, tool: tool)
            default:
                break
            }
            let probe = random.next() % 2 == 0 ? current : PlatformTouchID(random.next() % UInt64(touches))
            if held.tool(of: probe) != reference.tool(of: probe) || held.tool(of: current) != reference.tool(of: current)
                || held.count != reference.tools.count || held.hasForgotten != reference.hasForgotten {
                disagreements += 1
                if disagreements == 1 { Issue.record("step \(step): touch \(probe.rawValue) disagrees") }
            }
        }
        #expect(disagreements == 0)
    }
}

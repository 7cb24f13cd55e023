/// Writes interfaces as D-Bus introspection XML, with each doc string as an
/// `org.gtk.GDBus.DocString` annotation.
public enum IntrospectionXML {
    /// The DOCTYPE line every introspection document starts with.
    public static let header = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    /// A whole document holding `interfaces`, as shipped in `Service/`.
    public static func document(_ interfaces: [Interface]) -> String {
        header + "<node>\n" + interfaces.map(describe).joined() + "</node>\n"
    }

    /// One `<interface>` element, indented for a `<node>`.
    public static func describe(_ interface: Interface) -> String {
        var xml = "  <interface name=\"\(interface.name)\">\n"
        xml += doc(interface.doc, indent: "    ")
        for method in interface.methods {
            xml += "    <method name=\"\(method.name)\">\n" + doc(method.doc, indent: "      ")
            for arg in method.inputs { xml += "      " + argument(arg, direction: "in") }
            for arg in method.outputs { xml += "      " + argument(arg, direction: "out") }
            xml += "    </method>\n"
        }
        for signal in interface.signals {
            xml += "    <signal name=\"\(signal.name)\">\n" + doc(signal.doc, indent: "      ")
            for arg in signal.arguments { xml += "      " + argument(arg, direction: nil) }
            xml += "    </signal>\n"
        }
        for property in interface.properties {
            if property.doc.isEmpty {
                xml += "    <property name=\"\(property.name)\" type=\"\(property.signature)\" access=\"read\"/>\n"
            } else {
                xml += "    <property name=\"\(property.name)\" type=\"\(property.signature)\" access=\"read\">\n"
                xml += doc(property.doc, indent: "      ") + "    </property>\n"
            }
        }
        return xml + "  </interface>\n"
    }

    private static func argument(_ arg: Interface.Argument, direction: String?) -> String {
        let dir = direction.map { " direction=\"\($0)\"" } ?? ""
        let open = "<arg name=\"\(arg.name)\" type=\"\(escape(arg.signature))\"\(dir)"
        guard !arg.doc.isEmpty else { return open + "/>\n" }
        return open + ">\n" + doc(arg.doc, indent: "        ") + "      </arg>\n"
    }

    private static func doc(_ text: String, indent: String) -> String {
        guard !text.isEmpty else { return "" }
        return indent + "<annotation name=\"org.gtk.GDBus.DocString\" value=\"\(escape(text))\"/>\n"
    }

    /// `text` with the five XML special characters escaped.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }
}

package io.switchboard.director.gtp;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The GTPv2-C frames of a capture as tshark decodes them ({@code -T pdml}): addresses, header, and
 * the message-level F-TEIDs (not those inside grouped IEs such as Bearer Contexts) with their
 * instance, which {@code -T fields} cannot pair with the F-TEID's other fields.
 */
final class GtpV2Frames {

    /** A message-level F-TEID (TS 29.274 §8.22). */
    record Fteid(int instance, int interfaceType, long teid, String ipv4) {
    }

    /** One GTPv2-C message on the wire. */
    record Frame(String source, int sourcePort, String destination, int destinationPort, int type, long teid,
            int sequence, Integer cause, List<Fteid> fteids) {

        Optional<Fteid> fteid(int instance) {
            return fteids.stream().filter(f -> f.instance() == instance).findFirst();
        }
    }

    private GtpV2Frames() {
    }

    static List<Frame> read(Path capture) throws IOException, InterruptedException {
        Process tshark = new ProcessBuilder(Tshark.BINARY.toString(), "-n", "-r", capture.toString(), "-Y", "gtpv2",
                "-T", "pdml").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] pdml = tshark.getInputStream().readAllBytes();
        if (!tshark.waitFor(60, TimeUnit.SECONDS) || tshark.exitValue() != 0) {
            throw new IOException("tshark could not read " + capture);
        }
        try {
            var factory = DocumentBuilderFactory.newInstance();
            var document = factory.newDocumentBuilder().parse(new ByteArrayInputStream(pdml));
            List<Frame> frames = new ArrayList<>();
            NodeList packets = document.getElementsByTagName("packet");
            for (int i = 0; i < packets.getLength(); i++) {
                frames.add(frame((Element) packets.item(i)));
            }
            return frames;
        } catch (Exception e) {
            throw new IOException("tshark's PDML of " + capture + " does not parse: " + e
                    + "\n" + new String(pdml, 0, Math.min(pdml.length, 2000), StandardCharsets.UTF_8));
        }
    }

    private static Frame frame(Element packet) {
        Element ip = proto(packet, "ip");
        Element udp = proto(packet, "udp");
        Element gtp = proto(packet, "gtpv2");
        List<Fteid> fteids = new ArrayList<>();
        Integer cause = null;
        for (Element ie : children(gtp)) {
            String type = show(ie, "gtpv2.ie_type");
            if ("87".equals(type)) {
                fteids.add(new Fteid(Integer.parseInt(show(ie, "gtpv2.instance")),
                        Integer.parseInt(show(ie, "gtpv2.f_teid_interface_type")),
                        Long.decode(show(ie, "gtpv2.f_teid_gre_key")), show(ie, "gtpv2.f_teid_ipv4")));
            } else if ("2".equals(type) && cause == null) {
                cause = Integer.parseInt(show(ie, "gtpv2.cause"));
            }
        }
        String teid = show(gtp, "gtpv2.teid");
        return new Frame(show(ip, "ip.src"), Integer.parseInt(show(udp, "udp.srcport")), show(ip, "ip.dst"),
                Integer.parseInt(show(udp, "udp.dstport")), Integer.parseInt(show(gtp, "gtpv2.message_type")),
                teid == null ? -1 : Long.decode(teid), Integer.decode(show(gtp, "gtpv2.seq")), cause, fteids);
    }

    private static Element proto(Element packet, String name) {
        for (Element e : children(packet)) {
            if ("proto".equals(e.getTagName()) && name.equals(e.getAttribute("name"))) {
                return e;
            }
        }
        throw new IllegalStateException("frame without " + name);
    }

    /** The {@code show} value of the direct child field named {@code name}, or null. */
    private static String show(Element parent, String name) {
        for (Element e : children(parent)) {
            if (name.equals(e.getAttribute("name"))) {
                return e.getAttribute("show");
            }
        }
        return null;
    }

    private static List<Element> children(Element parent) {
        List<Element> list = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                list.add(e);
            }
        }
        return list;
    }
}

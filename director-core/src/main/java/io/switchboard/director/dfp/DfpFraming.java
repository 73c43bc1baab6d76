package io.switchboard.director.dfp;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.parsetools.RecordParser;
import java.util.function.Consumer;

/**
 * Cuts a DFP TCP stream into whole messages: the 8-byte signal header, then the rest of the Message
 * Length it gives (draft-eck-dfp-01 §4.1). A header that cannot be one (another version, a length
 * out of range) leaves the stream unreadable: {@code broken} hears of it and nothing more is read.
 */
final class DfpFraming implements Handler<Buffer> {

    private final RecordParser parser;
    private byte[] header;
    private boolean broken;

    DfpFraming(Consumer<byte[]> frames, Consumer<DfpException> brokenStream) {
        this.parser = RecordParser.newFixed(DfpWire.HEADER);
        parser.handler(record -> {
            if (broken) {
                return;
            }
            if (header == null) {
                byte[] h = record.getBytes();
                int length;
                try {
                    length = DfpWire.length(h, 0);
                } catch (DfpException e) {
                    broken = true;
                    brokenStream.accept(e);
                    return;
                }
                if (length == DfpWire.HEADER) {
                    frames.accept(h);
                } else {
                    header = h;
                    parser.fixedSizeMode(length - DfpWire.HEADER);
                }
            } else {
                byte[] frame = new byte[header.length + record.length()];
                System.arraycopy(header, 0, frame, 0, header.length);
                record.getBytes(frame, header.length);
                header = null;
                parser.fixedSizeMode(DfpWire.HEADER);
                frames.accept(frame);
            }
        });
    }

    @Override
    public void handle(Buffer data) {
        parser.handle(data);
    }
}

package io.switchboard.director.radius;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;

/**
 * {@code radius: {accounting-local-ack: true}} (IOS SLB {@code radius acct local-ack key SECRET}): the
 * director acknowledges each Accounting-Request itself and still forwards it to the accounting
 * server, whose own Accounting-Response is read (verified, Framed-IP learnt) and absorbed. The
 * acknowledgment is the Accounting-Response of RFC 2866 §4.2: code 5, the request's Identifier, no
 * attribute but the request's Proxy-State attributes, which RFC 2865 §5.33 has a server copy
 * unmodified into its answer, and the Response Authenticator of RFC 2866 §3,
 * MD5(Code + Identifier + Length + Request Authenticator + Attributes + Secret), with the client's
 * secret. Built from the client's request before it is re-signed for the real.
 */
final class LocalAck {

    private LocalAck() {
    }

    /** The acknowledgment of {@code request} (the client's Accounting-Request, as it sent it), signed with {@code secret}. */
    static byte[] of(RadiusView request, byte[] secret) throws DecodeException {
        int length = RadiusView.HEADER_LENGTH;
        int proxyState = RadiusAttributeType.PROXY_STATE.value();
        for (int a = request.firstAttribute(); a >= 0; a = request.nextAttribute(a)) {
            if (request.attributeType(a) == proxyState) {
                length += request.attributeLength(a);
            }
        }
        ByteBuf out = Unpooled.buffer(length, length);
        try {
            out.writeByte(RadiusCode.ACCOUNTING_RESPONSE.value()).writeByte(request.identifier()).writeShort(length)
                    .writeZero(16);
            ByteBuf in = request.buffer();
            for (int a = request.firstAttribute(); a >= 0; a = request.nextAttribute(a)) {
                if (request.attributeType(a) == proxyState) {
                    out.writeBytes(in, request.base() + a, request.attributeLength(a));
                }
            }
            RadiusAuthenticators.signResponse(RadiusView.wrap(out), request.authenticator(), secret);
            byte[] bytes = new byte[length];
            out.getBytes(0, bytes);
            return bytes;
        } finally {
            out.release();
        }
    }
}

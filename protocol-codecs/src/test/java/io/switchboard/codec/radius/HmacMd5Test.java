package io.switchboard.codec.radius;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** {@link HmacMd5} against RFC 2202 §2's HMAC-MD5 test cases, and against the JDK's own HmacMD5. */
class HmacMd5Test {

    @Test
    void rfc2202TestCases() {
        byte[] sixteen = new byte[16];
        Arrays.fill(sixteen, (byte) 0x0b);
        assertThat(mac(sixteen, "Hi There")).isEqualTo("9294727a3638bb1c13f48ef8158bfc9d");
        assertThat(mac("Jefe".getBytes(StandardCharsets.US_ASCII), "what do ya want for nothing?"))
                .isEqualTo("750c783e6ab0b503eaa86e310a5db738");
        // Test case 6: a key longer than the 64-octet block is hashed first.
        byte[] eighty = new byte[80];
        Arrays.fill(eighty, (byte) 0xaa);
        assertThat(mac(eighty, "Test Using Larger Than Block-Size Key - Hash Key First"))
                .isEqualTo("6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd");
    }

    @Test
    void theSameAsTheJdksHmacMd5ForKeysAndTextsOfEveryLengthAndOneKeyingForManyMacs() throws Exception {
        Random random = new Random(2104);
        for (int keyLength = 1; keyLength <= 130; keyLength += 7) {
            byte[] key = new byte[keyLength];
            random.nextBytes(key);
            HmacMd5 hmac = new HmacMd5(key);
            Mac jdk = Mac.getInstance("HmacMD5");
            jdk.init(new SecretKeySpec(key, "HmacMD5"));
            for (int textLength = 0; textLength <= 200; textLength += 13) {
                byte[] text = new byte[textLength];
                random.nextBytes(text);
                Md5 inner = hmac.start();
                inner.update(text);
                assertThat(hmac.finish(inner)).as("key %d, text %d", keyLength, textLength)
                        .isEqualTo(jdk.doFinal(text));
            }
        }
    }

    /** {@link Md5} against the JDK's MD5 for every length across two blocks, from arrays and buffers, and its state copies. */
    @Test
    void md5IsTheJdksForEveryLengthFromArraysAndDirectBuffersAndAfterACopy() throws Exception {
        Random random = new Random(1321);
        Md5 md5 = new Md5();
        Md5 copy = new Md5();
        byte[] out = new byte[16];
        for (int length = 0; length <= 200; length++) {
            byte[] text = new byte[length];
            random.nextBytes(text);
            byte[] expected = MessageDigest.getInstance("MD5").digest(text);
            md5.update(text, 0, length);
            md5.digest(out, 0);
            assertThat(out).as("array, %d", length).isEqualTo(expected);
            io.netty.buffer.ByteBuf direct = io.netty.buffer.Unpooled.directBuffer(length + 3);
            try {
                direct.writeZero(3).writeBytes(text);
                int half = length / 3;
                md5.update(direct, 3, half);
                copy.copyFrom(md5); // mid-block state carried over
                copy.update(direct, 3 + half, length - half);
                copy.digest(out, 0);
                assertThat(out).as("direct buffer after a copy, %d", length).isEqualTo(expected);
                md5.reset();
            } finally {
                direct.release();
            }
        }
    }

    private static String mac(byte[] key, String text) {
        HmacMd5 hmac = new HmacMd5(key);
        Md5 inner = hmac.start();
        inner.update(text.getBytes(StandardCharsets.US_ASCII));
        return HexFormat.of().formatHex(hmac.finish(inner));
    }
}

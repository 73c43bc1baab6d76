package io.switchboard.director.predictor;

import static io.switchboard.director.testing.TestFarms.ip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.director.config.Subnet;
import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The longest-prefix-match table of the route-map predictor. */
class PrefixTableTest {

    private static Subnet prefix(String text) {
        String[] parts = text.split("/");
        return new Subnet(ip(parts[0]), Integer.parseInt(parts[1]));
    }

    private static PrefixTable<String> table(String... prefixAndValue) {
        Map<Subnet, String> entries = new LinkedHashMap<>();
        for (int i = 0; i < prefixAndValue.length; i += 2) {
            entries.put(prefix(prefixAndValue[i]), prefixAndValue[i + 1]);
        }
        return PrefixTable.of(entries);
    }

    private static long ipv4(String literal) {
        byte[] a = ip(literal).getAddress();
        return ((a[0] & 0xffL) << 24) | ((a[1] & 0xffL) << 16) | ((a[2] & 0xffL) << 8) | (a[3] & 0xffL);
    }

    @Test
    void theLongestMatchingPrefixWinsWhateverTheOrderGiven() {
        PrefixTable<String> t = table("10.1.2.0/24", "c", "10.0.0.0/8", "a", "10.1.0.0/16", "b",
                "10.1.2.3/32", "host");
        assertThat(t.lookup(ip("10.1.2.3"))).isEqualTo("host");
        assertThat(t.lookup(ip("10.1.2.4"))).isEqualTo("c");
        assertThat(t.lookup(ip("10.1.3.4"))).isEqualTo("b");
        assertThat(t.lookup(ip("10.200.0.1"))).isEqualTo("a");
        assertThat(t.lookup(ip("11.0.0.1"))).isNull();
        assertThat(t.lookupIpv4(ipv4("10.1.2.4"))).isEqualTo("c");
        assertThat(t.lookupIpv4(ipv4("255.255.255.255"))).isNull();
    }

    @Test
    void aDefaultRouteCatchesTheRestOfItsFamilyOnly() {
        PrefixTable<String> t = table("0.0.0.0/0", "v4-default", "10.0.0.0/8", "ten", "2001:db8::/32", "doc");
        assertThat(t.lookup(ip("192.0.2.1"))).isEqualTo("v4-default");
        assertThat(t.lookup(ip("10.9.9.9"))).isEqualTo("ten");
        assertThat(t.lookup(ip("2001:db8:1::1"))).isEqualTo("doc");
        // An IPv6 address never falls into an IPv4 prefix, not even the IPv4 default.
        assertThat(t.lookup(ip("2001:db9::1"))).isNull();
        assertThat(t.lookup(ip("::"))).isNull();
    }

    @Test
    void ipv6PrefixesMatchAcrossTheSixtyFourBitBoundary() {
        PrefixTable<String> t = table("2001:db8::/32", "32", "2001:db8:0:1::/64", "64",
                "2001:db8:0:1:8000::/65", "65", "2001:db8:0:1::7/128", "host");
        assertThat(t.lookup(ip("2001:db8:0:1::7"))).isEqualTo("host");
        assertThat(t.lookup(ip("2001:db8:0:1::8"))).isEqualTo("64");
        assertThat(t.lookup(ip("2001:db8:0:1:8000::1"))).isEqualTo("65");
        assertThat(t.lookup(ip("2001:db8:0:2::1"))).isEqualTo("32");
        assertThat(t.lookup(ip("2001:db9::"))).isNull();
    }

    @Test
    void aSubscribersPrefixFallsIntoTheLongestTablePrefixThatHoldsAllOfIt() {
        PrefixTable<String> t = table("2001:db8::/32", "32", "2001:db8:1::/48", "48", "2001:db8:1:2::/64", "64",
                "2001:db8:1:2:8000::/72", "72", "10.0.0.0/8", "ten");
        // A /64 lies in the /64, the /48 and the /32; the /72 lies in it, not it in the /72.
        assertThat(t.lookupIpv6(v6("2001:db8:1:2::"), 64)).isEqualTo("64");
        assertThat(t.lookupIpv6(v6("2001:db8:1:2:8000::"), 64)).isEqualTo("64");
        assertThat(t.lookupIpv6(v6("2001:db8:1:2:8000::"), 72)).isEqualTo("72");
        // A /56 around the /64: only the /48 holds it whole.
        assertThat(t.lookupIpv6(v6("2001:db8:1::"), 56)).isEqualTo("48");
        assertThat(t.lookupIpv6(v6("2001:db8:9::"), 64)).isEqualTo("32");
        assertThat(t.lookupIpv6(v6("2001:db8::"), 16)).isNull();
        assertThat(t.lookupIpv6(v6("2001:db9::"), 64)).isNull();
        // The octets past the sixteenth (a prefix length, in the sticky key's form) are not read.
        byte[] keyForm = java.util.Arrays.copyOf(v6("2001:db8:1:2::"), 17);
        keyForm[16] = 64;
        assertThat(t.lookupIpv6(keyForm, 128)).isEqualTo("64");
    }

    private static byte[] v6(String literal) {
        return ip(literal).getAddress();
    }

    @Test
    void theHostBitsOfAPrefixDoNotMatter() {
        // Subnet clears them: 10.1.2.3/16 is 10.1.0.0/16.
        assertThat(table("10.1.2.3/16", "b").lookup(ip("10.1.99.1"))).isEqualTo("b");
        assertThat(table("10.1.2.3/16", "b").entries()).containsOnlyKeys(prefix("10.1.0.0/16"));
    }

    @Test
    void anEmptyTableMatchesNothingAndValuesMustNotBeNull() {
        assertThat(PrefixTable.<String>of(Map.of()).isEmpty()).isTrue();
        assertThat(PrefixTable.<String>empty().lookup(ip("10.0.0.1"))).isNull();
        Map<Subnet, String> withNull = new LinkedHashMap<>();
        withNull.put(prefix("10.0.0.0/8"), null);
        assertThatThrownBy(() -> PrefixTable.of(withNull)).isInstanceOf(NullPointerException.class);
    }

    /** Many random prefixes and addresses: the table agrees with a scan of every prefix. */
    @Test
    void agreesWithALinearScanOverRandomTables() throws Exception {
        Random random = new Random(5);
        for (int round = 0; round < 10; round++) {
            int family = round % 2 == 0 ? 4 : 16;
            Map<Subnet, Integer> entries = new LinkedHashMap<>();
            byte[] base = new byte[family];
            random.nextBytes(base);
            for (int i = 0; i < 200; i++) {
                byte[] a = base.clone();
                // Share leading bits with the base so that prefixes nest.
                for (int b = random.nextInt(family * 8); b < family * 8; b++) {
                    if (random.nextBoolean()) {
                        a[b / 8] ^= (byte) (0x80 >>> (b % 8));
                    }
                }
                entries.putIfAbsent(new Subnet(InetAddress.getByAddress(a), random.nextInt(family * 8 + 1)), i);
            }
            PrefixTable<Integer> t = PrefixTable.of(entries);
            for (int probe = 0; probe < 300; probe++) {
                byte[] a = base.clone();
                for (int b = random.nextInt(family * 8); b < family * 8; b++) {
                    if (random.nextInt(4) == 0) {
                        a[b / 8] ^= (byte) (0x80 >>> (b % 8));
                    }
                }
                InetAddress address = InetAddress.getByAddress(a);
                Integer expected = null;
                int longest = -1;
                for (Map.Entry<Subnet, Integer> e : entries.entrySet()) {
                    if (e.getKey().contains(address) && e.getKey().prefixLength() > longest) {
                        longest = e.getKey().prefixLength();
                        expected = e.getValue();
                    }
                }
                assertThat(t.lookup(address)).as("%s in round %d", address, round).isEqualTo(expected);
                if (family == 4) {
                    assertThat(t.lookupIpv4(ipv4(address.getHostAddress()))).isEqualTo(expected);
                }
            }
        }
    }
}

package dev.finch.net;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * Which addresses are special: not the public internet. Loopback, unspecified, link-local (cloud metadata services
 * live there), private (RFC 1918, IPv6 unique local), shared (RFC 6598), multicast, benchmarking, reserved and
 * broadcast ranges; and IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4) by the address they carry.
 */
final class Addresses {
    private Addresses() { }

    /** Whether {@code a} is anything but a public unicast address. */
    static boolean special(InetAddress a) {
        if (a.isLoopbackAddress() || a.isAnyLocalAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress() || a.isMulticastAddress()) return true;
        byte[] b = a.getAddress();
        if (a instanceof Inet4Address) return special4(b, 0);
        if (a instanceof Inet6Address) {
            int first = b[0] & 0xff;
            if ((first & 0xfe) == 0xfc) return true; // fc00::/7 unique local
            if (first == 0xfe && (b[1] & 0xc0) == 0x80) return true; // fe80::/10
            boolean zero10 = true;
            for (int i = 0; i < 10; i++) zero10 &= b[i] == 0;
            if (zero10 && ((b[10] == 0 && b[11] == 0) || (b[10] == (byte) 0xff && b[11] == (byte) 0xff))) return special4(b, 12); // ::a.b.c.d, ::ffff:a.b.c.d
            if (first == 0x00 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b) return special4(b, 12); // 64:ff9b::/96
            if (first == 0x20 && b[1] == 0x02) return special4(b, 2); // 2002::/16 6to4
            if (first == 0x20 && b[1] == 0x01 && b[2] == 0x0d && (b[3] & 0xff) == 0xb8) return true; // documentation
            return false;
        }
        return true;
    }

    private static boolean special4(byte[] b, int at) {
        int a0 = b[at] & 0xff;
        int a1 = b[at + 1] & 0xff;
        int a2 = b[at + 2] & 0xff;
        return a0 == 0 || a0 == 10 || a0 == 127 || a0 >= 224                       // this network, private, loopback, multicast/reserved/broadcast
                || (a0 == 100 && (a1 & 0xc0) == 64)                                // 100.64/10 shared
                || (a0 == 169 && a1 == 254)                                       // link-local
                || (a0 == 172 && (a1 & 0xf0) == 16)                               // 172.16/12
                || (a0 == 192 && a1 == 168)                                       // 192.168/16
                || (a0 == 192 && a1 == 0 && (a2 == 0 || a2 == 2))                 // IETF protocol assignments, TEST-NET-1
                || (a0 == 198 && (a1 & 0xfe) == 18)                               // 198.18/15 benchmarking
                || (a0 == 198 && a1 == 51 && a2 == 100) || (a0 == 203 && a1 == 0 && a2 == 113); // TEST-NET-2, -3
    }
}

package dev.finch.automation;

import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The parts of the Robot host that need no display: no display means unavailable, the key table, the wmctrl parser. */
class AwtAutomationHostTest {
    private static final boolean X11 = !System.getProperty("os.name", "").toLowerCase().matches(".*(win|mac).*");

    @Test
    void withoutADisplayTheDesktopIsUnavailableAndEveryOperationFails() {
        org.junit.jupiter.api.Assumptions.assumeTrue(X11, "DISPLAY decides availability only on X11 systems");
        AwtAutomationHost host = new AwtAutomationHost(null);
        AutomationHost.Availability a = host.availability();
        assertThat(a.available()).isFalse();
        assertThat(a.backend()).isEqualTo("awt-robot");
        assertThat(a.reason()).contains("DISPLAY is not set");
        assertThatThrownBy(host::displays).isInstanceOfSatisfying(HostFailure.class, f -> assertThat(f.code()).isEqualTo(HostCode.AUTOMATION));
        assertThatThrownBy(() -> host.click(1, 1, AutomationHost.Button.LEFT)).isInstanceOf(HostFailure.class);
        assertThatThrownBy(() -> host.type("x")).isInstanceOf(HostFailure.class);
        assertThat(AwtAutomationHost.displayLikely(java.util.Map.of())).isFalse();
        assertThat(AwtAutomationHost.displayLikely(java.util.Map.of("DISPLAY", ":5"))).isTrue();
    }

    @Test
    void typingUsesUsKeysAndRefusesTheRestBeforeAnyKey() throws HostFailure {
        int[][] keys = AwtAutomationHost.Keys.of("aZ1!\n\t ~");
        assertThat(keys).isDeepEqualTo(new int[][] {new int[] {java.awt.event.KeyEvent.VK_A, 0}, new int[] {java.awt.event.KeyEvent.VK_Z, 1},
                new int[] {java.awt.event.KeyEvent.VK_1, 0}, new int[] {java.awt.event.KeyEvent.VK_1, 1}, new int[] {java.awt.event.KeyEvent.VK_ENTER, 0},
                new int[] {java.awt.event.KeyEvent.VK_TAB, 0}, new int[] {java.awt.event.KeyEvent.VK_SPACE, 0}, new int[] {java.awt.event.KeyEvent.VK_BACK_QUOTE, 1}});
        int[][] punctuation = AwtAutomationHost.Keys.of("`-=[]\\;',./");
        assertThat(java.util.Arrays.stream(punctuation).mapToInt(k -> k[0]).toArray()).containsExactly(java.awt.event.KeyEvent.VK_BACK_QUOTE, java.awt.event.KeyEvent.VK_MINUS,
                java.awt.event.KeyEvent.VK_EQUALS, java.awt.event.KeyEvent.VK_OPEN_BRACKET, java.awt.event.KeyEvent.VK_CLOSE_BRACKET,
                java.awt.event.KeyEvent.VK_BACK_SLASH, java.awt.event.KeyEvent.VK_SEMICOLON, java.awt.event.KeyEvent.VK_QUOTE,
                java.awt.event.KeyEvent.VK_COMMA, java.awt.event.KeyEvent.VK_PERIOD, java.awt.event.KeyEvent.VK_SLASH);
        assertThatThrownBy(() -> AwtAutomationHost.Keys.of("ok é")).isInstanceOfSatisfying(HostFailure.class,
                f -> assertThat(f.getMessage()).contains("U+00E9").contains("nothing was typed"));
        assertThatThrownBy(() -> AwtAutomationHost.Keys.of("😀")).hasMessageContaining("U+1F600");
    }

    @Test
    void wmctrlLinesBecomeWindows() {
        String out = "0x01e00003  0 0    0    1280 1024 box Desktop\n"
                + "0x02000007 -1 -20  40   300  200  N/A \n"
                + "0x02400001  1 10 20 640 480 box Mail — inbox (3)\n"
                + "not a window line\n";
        assertThat(AwtAutomationHost.parseWmctrl(out)).containsExactly(
                new AutomationHost.Window("0x01e00003", "Desktop", 0, 0, 1280, 1024),
                new AutomationHost.Window("0x02000007", "", -20, 40, 300, 200),
                new AutomationHost.Window("0x02400001", "Mail — inbox (3)", 10, 20, 640, 480));
        assertThat(AwtAutomationHost.parseWmctrl("")).isEqualTo(List.of());
    }
}

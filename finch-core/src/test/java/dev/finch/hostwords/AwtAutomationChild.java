package dev.finch.hostwords;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.automation.AwtAutomationHost;
import java.awt.EventQueue;
import java.awt.Frame;
import java.awt.TextField;
import java.awt.event.MouseAdapter;
import java.awt.event.MouseEvent;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The child JVM of {@link AwtAutomationTest}, started with {@code DISPLAY} naming an Xvfb server (AWT reads the
 * display from the environment only). It shows a text field at a known place, runs automation programs through a
 * session with the Robot host, and prints one line per fact: {@code out <program> TAB <top of stack or diagnostic code>},
 * then what the field received ({@code clicks N}, {@code text …}).
 */
public final class AwtAutomationChild {
    private AwtAutomationChild() { }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("no-server")) {
            // DISPLAY names no server: AWT fails to initialize once, and must keep answering the same way.
            Session s = Finch.create().newSession(SessionOptions.builder().grants(List.of("desktop.automate(*)")).build()
                    .withAutomationHost(new AwtAutomationHost()));
            for (String program : List.of("(automation-availability)", "(automation-displays)", "(string-append (automation-availability) \"\")")) {
                Outcome o = s.submit(Submission.of(program, "p.lisp"));
                String answer = o.status() == Outcome.Status.COMPLETED ? o.stack().get(o.stack().size() - 1).display() : o.status() + " " + o.diagnostics().get(0).code();
                System.out.println("out " + program + "\t" + answer);
            }
            System.out.println("clicks none");
            System.out.println("text none");
            System.exit(0);
        }
        ConcurrentLinkedQueue<String> clicks = new ConcurrentLinkedQueue<>();
        TextField[] field = new TextField[1];
        EventQueue.invokeAndWait(() -> {
            Frame f = new Frame("finch-automation-target");
            f.setUndecorated(true);
            f.setLayout(null);
            f.setBounds(100, 100, 400, 200);
            TextField t = new TextField();
            t.setBounds(0, 0, 400, 200);
            t.addMouseListener(new MouseAdapter() {
                @Override public void mouseClicked(MouseEvent e) { clicks.add(e.getButton() + "@" + e.getXOnScreen() + "," + e.getYOnScreen()); }
            });
            f.add(t);
            f.setVisible(true);
            field[0] = t;
        });
        Thread.sleep(500);
        Session s = Finch.create().newSession(SessionOptions.builder().grants(List.of("desktop.automate(*)")).build()
                .withAutomationHost(new AwtAutomationHost()));
        for (String program : List.of("(automation-availability)", "(automation-displays)", "(automation-click 300 200 \"left\")",
                "(automation-type \"Hi there!\")", "(automation-type \"caf\\u00e9\")", "(automation-click 5000 5000 \"left\")", "(automation-windows)")) {
            Outcome o = s.submit(Submission.of(program, "p.lisp"));
            String answer = o.status() == Outcome.Status.COMPLETED ? o.stack().get(o.stack().size() - 1).display() : o.status() + " " + o.diagnostics().get(0).code();
            System.out.println("out " + program + "\t" + answer);
        }
        Thread.sleep(300);
        String[] text = new String[1];
        EventQueue.invokeAndWait(() -> text[0] = field[0].getText());
        System.out.println("clicks " + String.join(" ", clicks));
        System.out.println("text " + text[0]);
        System.out.flush();
        System.exit(0);
    }
}

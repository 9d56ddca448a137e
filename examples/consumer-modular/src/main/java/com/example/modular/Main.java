package com.example.modular;

import dev.finch.Finch;
import dev.finch.FinchJson;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;

/** Runs a Lisp, a Co-Forth and a µNorman program in one session and prints each outcome's status and output. */
public final class Main {
    private Main() { }

    public static void main(String[] args) {
        try (Finch finch = Finch.create()) {
            Session session = finch.newSession();
            Outcome lisp = session.submit(Submission.of("(define (square x) (* x x)) (say (int-to-string (square 12)))", "app.lisp"));
            Outcome forth = session.submit(Submission.of("5 square int-to-string say", "app.fth"));
            Outcome norman = session.submit(Submission.of("(define twice (x) (* 2 x))", "app.nm").withLanguage(Language.NORMAN));
            for (Outcome o : new Outcome[] {lisp, forth, norman}) {
                System.out.println(o.status().name().toLowerCase() + " " + o.output());
                if (o.status() != Outcome.Status.COMPLETED) System.out.println(FinchJson.write(o));
            }
            System.out.println("module " + Finch.class.getModule().getName() + " in " + Main.class.getModule().getName());
        }
    }
}

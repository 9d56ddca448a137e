package dev.finch.host.words;

import dev.finch.host.EditorHost;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.HostCode;
import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;

/** Editor-backed proposals: a program proposes a program for the person to edit and decide about ({@link EditorHost}). */
public final class ProposalWords {
    private ProposalWords() { }

    /** The languages a proposal may name: what a grant {@code program.invoke(language=…)} can spell exactly. */
    private static final java.util.regex.Pattern LANGUAGE = java.util.regex.Pattern.compile("[a-z][a-z0-9+_-]{0,31}");

    @Word(name = "proposal-open", category = Category.PROCESS,
            doc = "Propose a program (language, title, source) for the person to edit: some(ok source) if accepted (data, never run), "
                    + "some(err buffer) to talk instead, none if cancelled; needs program.invoke(language=L). Without an editor host the host answers.")
    @Overload(sig = "string string string -> option<result<string,string>> ! {program.invoke(language=*)}", requires = "program.invoke(language=$0)")
    public static Object proposalOpen(Ctx ctx, String language, String title, String source, Type.Fn site, Origin o) {
        if (!LANGUAGE.matcher(language).matches()) {
            throw new FinchTrap(HostCode.BAD_ARGUMENT, o, "proposal-open needs a language name such as \"python\" or \"bash\" "
                    + "(lowercase letters, digits, + _ -), not \"" + (language.length() > 40 ? language.substring(0, 40) + "…" : language) + "\"");
        }
        Capability requirement = Capability.of("program.invoke", "language=" + language);
        EditorHost editor = dev.finch.vm.boundary.RunHost.of(ctx).config().binding(EditorHost.class);
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "proposal-open", requirement, EffectRequest.inputs(site, language, title, source), site.outs(), o,
                editor == null ? null : () -> answer(editor.propose(language, title, source)));
    }

    private static Object answer(EditorHost.Decision d) {
        if (d instanceof EditorHost.Decision.Execute e) return OptionValue.some(ResultValue.ok(e.source()));
        if (d instanceof EditorHost.Decision.Chat c) return OptionValue.some(ResultValue.err(c.buffer()));
        return OptionValue.NONE;
    }
}

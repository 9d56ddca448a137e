package dev.finch.wordindex;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import dev.finch.ir.vocab.RequirementTemplate;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.tools.Diagnostic;

/**
 * Writes a word library's index while its module compiles (the class the option {@value #OPTION} names, e.g.
 * {@code dev.finch.lib.LibIndex}, a {@code dev.finch.vm.word.WordIndex}): every member of the module that carries
 * {@code @Word} or {@code @Overload}, with the annotations' values as written (the signature and requirement template
 * already parsed, by finch-ir's one parser), the member's class, name and the JVM descriptor of each parameter and of its
 * result, and which of the run context, call depth, call site and origin its parameters take; and its calls class, the
 * interpreter's plain static call of each indexed method by number. {@code Library.of} builds Finch's vocabulary from the
 * indexes in a fresh JVM instead of reading the annotations by reflection; the declarations stay the one definition, the
 * index is derived from them on every build, and each module's index test fails if the two ever disagree (it builds the
 * library both ways). A malformed signature or template is a compile error here.
 *
 * <p>The annotations are read by name (their classes are the engine's word SPI), so this module depends on finch-ir
 * only.
 */
@SupportedAnnotationTypes({WordIndexProcessor.WORD, WordIndexProcessor.OVERLOAD})
@javax.annotation.processing.SupportedOptions(WordIndexProcessor.OPTION)
public final class WordIndexProcessor extends AbstractProcessor {
    static final String WORD = "dev.finch.vm.declare.Word";
    static final String OVERLOAD = "dev.finch.vm.declare.Overload";
    /**
     * The option naming the index a module's build writes ({@code -Afinch.words.index=dev.finch.lib.LibIndex}): each word
     * library has its own, a public class implementing {@code dev.finch.vm.word.WordIndex}.
     */
    static final String OPTION = "finch.words.index";
    /** Cases per method of the calls class: each small enough for the JIT to compile (it skips methods over 8,000 bytes). */
    static final int CALLS_PER_METHOD = 16;

    private static final String CTX = "dev.finch.vm.runtime.Ctx";
    private static final String SITE = "dev.finch.ir.type.Type$Fn";
    private static final String ORIGIN = "dev.finch.ir.diag.Origin";

    private boolean written;
    /** The index class this build writes ({@link #OPTION}). */
    private String index;

    private String pkg() { return index.substring(0, index.lastIndexOf('.')); }

    private String simple() { return index.substring(index.lastIndexOf('.') + 1); }

    @Override public SourceVersion getSupportedSourceVersion() { return SourceVersion.latestSupported(); }

    @Override public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
        if (written || annotations.isEmpty()) return false;
        index = processingEnv.getOptions().get(OPTION);
        if (index == null || !index.matches("([a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_]*")) {
            processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, "name the word index to write: -A" + OPTION + "=<package>.<Class>");
            return false;
        }
        Set<Element> members = new LinkedHashSet<>();
        for (TypeElement a : annotations) members.addAll(round.getElementsAnnotatedWith(a));
        // By class, then by member name: the order the reflective reading uses.
        Map<String, List<Element>> byClass = new TreeMap<>();
        for (Element e : members) byClass.computeIfAbsent(binaryName(owner(e)), k -> new ArrayList<>()).add(e);
        byClass.values().forEach(l -> l.sort(Comparator.comparing(e -> e.getSimpleName().toString())));
        StringBuilder src = new StringBuilder();
        List<String> calls = new ArrayList<>();
        boolean ok = write(byClass, src, calls);
        if (!ok) return false;
        Element[] origins = members.toArray(new Element[0]);
        writeSource(index, src.toString(), origins);
        writeSource(index + "Calls", calls(calls), origins);
        written = true;
        return false;
    }

    private void writeSource(String name, String text, Element[] origins) {
        try (Writer w = processingEnv.getFiler().createSourceFile(name, origins).openWriter()) {
            w.write(text);
        } catch (IOException e) {
            processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, "cannot write " + name + ": " + e.getMessage());
        }
    }

    /**
     * {@code CoreCalls}: the interpreter's call of each indexed method by its call number, a plain static call with
     * the boxed inputs cast and unboxed to the method's parameters and a primitive result boxed — what a method handle
     * adapted to {@code (Ctx, int, Type.Fn, Origin, Object[]) Object} would do, without the classes a fresh JVM spins to
     * adapt one. {@code calls} holds each call's expression (a statement for a void method), by number.
     */
    private String calls(List<String> calls) {
        StringBuilder out = new StringBuilder();
        String params = "dev.finch.vm.runtime.Ctx c, int depth, dev.finch.ir.type.Type.Fn site, dev.finch.ir.diag.Origin at, Object[] in";
        out.append("package ").append(pkg()).append(";\n\n")
                .append("/**\n")
                .append(" * GENERATED by finch-word-index's WordIndexProcessor from the @Word/@Overload declarations; do not edit. The interpreter's\n")
                .append(" * call of each method the index names, by its call number: the inputs cast (and unboxed) to the method's parameters, a\n")
                .append(" * primitive result boxed, a void method's answered as null.\n")
                .append(" */\n")
                .append("@SuppressWarnings({\"unchecked\", \"rawtypes\", \"deprecation\", \"removal\"})\n")
                .append("final class ").append(simple()).append("Calls {\n")
                .append("    private ").append(simple()).append("Calls() { }\n\n")
                .append("    /** Calls method {@code n} of the index. */\n")
                .append("    static Object call(int n, ").append(params).append(") throws Throwable {\n")
                .append("        switch (n / ").append(CALLS_PER_METHOD).append(") {\n");
        int methods = (calls.size() + CALLS_PER_METHOD - 1) / CALLS_PER_METHOD;
        for (int m = 0; m < methods; m++) out.append("            case ").append(m).append(": return m").append(m).append("(n, c, depth, site, at, in);\n");
        out.append("            default: throw new IllegalArgumentException(\"the index has no method \" + n);\n        }\n    }\n");
        for (int m = 0; m < methods; m++) {
            out.append("\n    private static Object m").append(m).append("(int n, ").append(params).append(") throws Throwable {\n")
                    .append("        switch (n) {\n");
            for (int k = m * CALLS_PER_METHOD; k < Math.min(calls.size(), (m + 1) * CALLS_PER_METHOD); k++) {
                out.append("            case ").append(k).append(": ").append(calls.get(k)).append('\n');
            }
            out.append("            default: throw new IllegalArgumentException(\"the index has no method \" + n);\n        }\n    }\n");
        }
        return out.append("}\n").toString();
    }

    private boolean write(Map<String, List<Element>> byClass, StringBuilder out, List<String> calls) {
        out.append("package ").append(pkg()).append(";\n\n")
                .append("import dev.finch.ir.cap.Capability;\n")
                .append("import dev.finch.ir.type.Type;\n")
                .append("import dev.finch.ir.vocab.RequirementTemplate;\n")
                .append("import dev.finch.ir.vocab.Typing;\n")
                .append("import dev.finch.ir.vocab.WordSpec;\n")
                .append("import dev.finch.vm.word.Declaration;\n")
                .append("import dev.finch.vm.declare.Intrinsic;\n")
                .append("import java.util.ArrayList;\n")
                .append("import java.util.List;\n")
                .append("import java.util.Optional;\n\n")
                .append("/** GENERATED by finch-word-index's WordIndexProcessor from the @Word/@Overload declarations; do not edit. */\n")
                .append("public final class ").append(simple()).append(" implements dev.finch.vm.word.WordIndex {\n")
                .append("    /** The one index of this module's words. */\n")
                .append("    public static final ").append(simple()).append(" INSTANCE = new ").append(simple()).append("();\n\n")
                .append("    private ").append(simple()).append("() { }\n\n")
                .append("    @Override public Object call(int n, dev.finch.vm.runtime.Ctx c, int depth, dev.finch.ir.type.Type.Fn site, dev.finch.ir.diag.Origin at, Object[] in) throws Throwable {\n")
                .append("        return ").append(simple()).append("Calls.call(n, c, depth, site, at, in);\n    }\n\n")
                .append("    @Override public List<String> classes() { return CLASSES; }\n\n")
                .append("    /** The classes that declare this module's words. */\n")
                .append("    private static final List<String> CLASSES = List.of(");
        String sep = "";
        for (String c : byClass.keySet()) { out.append(sep).append('\n').append("            ").append(string(c)); sep = ","; }
        out.append(");\n\n");
        int count = byClass.values().stream().mapToInt(List::size).sum();
        out.append("    /** Every declaring member, by class and then by name. */\n")
                .append("    @Override public List<Declaration> declarations() {\n")
                .append("        List<Declaration> out = new ArrayList<>(").append(count).append(");\n");
        int k = 0;
        for (String c : byClass.keySet()) out.append("        c").append(k++).append("(out); // ").append(c).append('\n');
        out.append("        return out;\n    }\n");
        boolean ok = true;
        k = 0;
        for (var e : byClass.entrySet()) {
            out.append("\n    private void c").append(k++).append("(List<Declaration> out) {\n");
            for (Element m : e.getValue()) ok &= member(e.getKey(), m, out, calls);
            out.append("    }\n");
        }
        out.append("}\n");
        return ok;
    }

    /**
     * One {@code out.add(new Declaration(site, word, overload));} (and, for a method, its call in {@code calls}), or
     * false after reporting what is malformed.
     */
    private boolean member(String owner, Element m, StringBuilder out, List<String> calls) {
        Map<String, Object> word = null;
        Map<String, Object> overload = null;
        for (AnnotationMirror a : m.getAnnotationMirrors()) {
            String name = ((TypeElement) a.getAnnotationType().asElement()).getQualifiedName().toString();
            if (name.equals(WORD)) word = values(a);
            if (name.equals(OVERLOAD)) overload = values(a);
        }
        String w = word == null ? "null" : "new Declaration.WordValues(" + string((String) word.get("name")) + ", WordSpec.Category." + word.get("category")
                + ", " + string((String) word.get("doc")) + ", " + word.get("foldsLeft") + ", " + word.get("pauses") + ", Typing." + word.get("typing")
                + ", " + strings(word.get("aka")) + ")";
        String o = "null";
        Type.Fn fn = null;
        if (overload != null) {
            String sig = (String) overload.get("sig");
            try {
                fn = TypeSyntax.parseSignature(sig);
            } catch (RuntimeException bad) {
                processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, "malformed signature \"" + sig + "\": " + bad.getMessage(), m);
                return false;
            }
            String requires = (String) overload.get("requires");
            String template = "Optional.empty()";
            if (!requires.isEmpty()) {
                Optional<RequirementTemplate> t = RequirementTemplate.parse(requires);
                if (t.isEmpty()) {
                    processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, "malformed requirement template \"" + requires + "\"", m);
                    return false;
                }
                template = "Optional.of(" + template(t.get()) + ")";
            }
            o = "new Declaration.OverloadValues(" + type(fn) + ", " + string((String) overload.get("id")) + ", " + string((String) overload.get("word"))
                    + ", " + overload.get("order") + ", " + template + ", " + overload.get("refines") + ", Intrinsic." + overload.get("intrinsic") + ")";
        }
        String site;
        if (m.getKind() == ElementKind.METHOD) {
            ExecutableElement x = (ExecutableElement) m;
            List<String> params = new ArrayList<>();
            for (VariableElement p : x.getParameters()) params.add(descriptor(p.asType()));
            // One string per type, not the method descriptor: a shading plugin relocates a string that is one type's
            // descriptor (finch-all moves Jackson's JsonNode), never a type inside a method descriptor.
            StringBuilder d = new StringBuilder("List.of(");
            for (int k = 0; k < params.size(); k++) d.append(k == 0 ? "" : ", ").append(string(params.get(k)));
            d.append("), ").append(string(descriptor(x.getReturnType())));
            // Library's rule for a Method: the context and depth first, then the signature's inputs, then the site and origin.
            int i = 0;
            boolean ctx = i < params.size() && params.get(i).equals(ref(CTX));
            if (ctx) i++;
            boolean depth = ctx && i < params.size() && params.get(i).equals("I");
            if (depth) i++;
            i += fn == null ? 0 : fn.ins().size();
            boolean callSite = i < params.size() && params.get(i).equals(ref(SITE));
            if (callSite) i++;
            boolean origin = i < params.size() && params.get(i).equals(ref(ORIGIN));
            if (origin) i++;
            if (fn != null && i != params.size()) {
                processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, "a parameter that the signature \"" + fn + "\" does not explain", m);
                return false;
            }
            site = "new Declaration.IndexedMethod(" + string(owner) + ", " + string(x.getSimpleName().toString()) + ", " + d
                    + ", " + ctx + ", " + depth + ", " + callSite + ", " + origin + ", " + (fn == null ? -1 : calls.size()) + ", this)";
            // A @Word without an @Overload is refused when the library is assembled; it has no call.
            if (fn != null) calls.add(call(x, ctx, depth, fn.ins().size(), callSite, origin));
        } else {
            String field = m.getSimpleName().toString();
            site = "new Declaration.IndexedConstant(" + string(owner) + ", " + string(field) + ")";
        }
        out.append("        out.add(new Declaration(").append(site).append(",\n                ").append(w).append(",\n                ").append(o).append("));\n");
        return true;
    }

    /** The statement of the calls class that calls {@code x} with the interpreter's boxed inputs {@code in}. */
    private String call(ExecutableElement x, boolean ctx, boolean depth, int inputs, boolean site, boolean origin) {
        StringBuilder args = new StringBuilder();
        List<? extends VariableElement> ps = x.getParameters();
        int p = 0;
        if (ctx) { args.append("c"); p++; }
        if (depth) { args.append(", depth"); p++; }
        for (int k = 0; k < inputs; k++, p++) args.append(p == 0 ? "" : ", ").append(unboxed(ps.get(p).asType(), "in[" + k + "]"));
        if (site) args.append(p++ == 0 ? "" : ", ").append("site");
        if (origin) args.append(p == 0 ? "" : ", ").append("at");
        String invocation = owner(x).getQualifiedName() + "." + x.getSimpleName() + "(" + args + ")";
        TypeMirror r = x.getReturnType();
        return switch (r.getKind()) {
            case VOID -> invocation + "; return null;";
            case BOOLEAN, BYTE, SHORT, CHAR, INT, LONG, FLOAT, DOUBLE -> "return " + wrapper(r) + ".valueOf(" + invocation + ");";
            default -> "return " + invocation + ";";
        };
    }

    /** {@code value} (an {@code Object}) cast to the erased parameter type {@code t}, unboxed when it is primitive. */
    private String unboxed(TypeMirror t, String value) {
        TypeMirror e = processingEnv.getTypeUtils().erasure(t);
        if (e.getKind().isPrimitive()) return "((" + wrapper(e) + ") " + value + ")." + e + "Value()";
        String name = e.toString();
        return name.equals("java.lang.Object") ? value : "((" + name + ") " + value + ")";
    }

    private static String wrapper(TypeMirror primitive) {
        return switch (primitive.getKind()) {
            case BOOLEAN -> "Boolean";
            case BYTE -> "Byte";
            case SHORT -> "Short";
            case CHAR -> "Character";
            case INT -> "Integer";
            case LONG -> "Long";
            case FLOAT -> "Float";
            case DOUBLE -> "Double";
            default -> throw new IllegalStateException("not a primitive: " + primitive);
        };
    }

    /** The annotation's values by element name, defaults included; enum constants by name. */
    private Map<String, Object> values(AnnotationMirror a) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e : processingEnv.getElementUtils().getElementValuesWithDefaults(a).entrySet()) {
            Object v = e.getValue().getValue();
            out.put(e.getKey().getSimpleName().toString(), v instanceof VariableElement c ? c.getSimpleName().toString() : v);
        }
        return out;
    }

    /** {@code List.of("a", "b")} for an annotation's array of strings (a list of annotation values). */
    private static String strings(Object array) {
        StringBuilder b = new StringBuilder("List.of(");
        String sep = "";
        if (array instanceof List<?> values) {
            for (Object v : values) {
                b.append(sep).append(string((String) ((AnnotationValue) v).getValue()));
                sep = ", ";
            }
        }
        return b.append(')').toString();
    }

    /** A Java expression that makes {@code t} (as finch-ir's parser made it). */
    static String type(Type t) {
        return switch (t.kind()) {
            case PRIM -> "Type.Prim." + ((Type.Prim) t).name();
            case PATH -> "new Type.PathT(" + string(((Type.PathT) t).root()) + ")";
            case OPTION -> "new Type.OptionT(" + type(((Type.OptionT) t).value()) + ")";
            case RESULT -> "new Type.ResultT(" + type(((Type.ResultT) t).ok()) + ", " + type(((Type.ResultT) t).err()) + ")";
            case LIST -> "new Type.ListT(" + type(((Type.ListT) t).element()) + ")";
            case MAP -> "new Type.MapT(" + type(((Type.MapT) t).key()) + ", " + type(((Type.MapT) t).value()) + ")";
            case RECORD -> {
                StringBuilder b = new StringBuilder("new Type.RecordT(Declaration.fields(");
                String sep = "";
                for (var e : ((Type.RecordT) t).fields().entrySet()) { b.append(sep).append(string(e.getKey())).append(", ").append(type(e.getValue())); sep = ", "; }
                yield b.append("))").toString();
            }
            case VARIANT -> {
                StringBuilder b = new StringBuilder("new Type.VariantT(Declaration.tags(");
                String sep = "";
                for (var e : ((Type.VariantT) t).tags().entrySet()) {
                    b.append(sep).append(string(e.getKey())).append(", ").append(e.getValue().map(v -> "Optional.of(" + type(v) + ")").orElse("Optional.empty()"));
                    sep = ", ";
                }
                yield b.append("))").toString();
            }
            case TASK -> "new Type.TaskT(" + type(((Type.TaskT) t).value()) + ")";
            case FIBER -> "new Type.FiberT(" + type(((Type.FiberT) t).yielded()) + ", " + type(((Type.FiberT) t).result()) + ")";
            case STREAM -> "new Type.StreamT(" + type(((Type.StreamT) t).element()) + ")";
            case RESOURCE -> "new Type.ResourceT(" + type(((Type.ResourceT) t).of()) + ")";
            case NAMED -> {
                Type.Named n = (Type.Named) t;
                yield "new Type.Named(" + string(n.name()) + n.definition().map(d -> ", Optional.of(" + type(d) + ")").orElse("") + ")";
            }
            case VAR -> "new Type.Var(" + string(((Type.Var) t).name()) + ")";
            case FN -> {
                Type.Fn f = (Type.Fn) t;
                StringBuilder b = new StringBuilder("new Type.Fn(").append(types(f.ins())).append(", ").append(types(f.outs())).append(", Declaration.effects(");
                String sep = "";
                for (Capability c : f.effects()) { b.append(sep).append(capability(c)); sep = ", "; }
                b.append("), ");
                b.append(f.yields().map(y -> "Optional.of(new Type.Yields(" + type(y.yielded()) + ", " + type(y.resumed()) + "))").orElse("Optional.empty()"));
                yield b.append(')').toString();
            }
        };
    }

    private static String types(List<Type> ts) {
        StringBuilder b = new StringBuilder("List.of(");
        String sep = "";
        for (Type t : ts) { b.append(sep).append(type(t)); sep = ", "; }
        return b.append(')').toString();
    }

    private static String capability(Capability c) {
        StringBuilder b = new StringBuilder("new Capability(").append(string(c.name())).append(", List.of(");
        String sep = "";
        for (String a : c.args()) { b.append(sep).append(string(a)); sep = ", "; }
        return b.append("))").toString();
    }

    private static String template(RequirementTemplate t) {
        StringBuilder b = new StringBuilder("new RequirementTemplate(").append(string(t.name())).append(", List.of(");
        String sep = "";
        for (RequirementTemplate.Slot s : t.args()) {
            if (s instanceof RequirementTemplate.Slot.Text x) b.append(sep).append("new RequirementTemplate.Slot.Text(").append(string(x.text())).append(')');
            else if (s instanceof RequirementTemplate.Slot.Arg x) b.append(sep).append("new RequirementTemplate.Slot.Arg(").append(x.index()).append(", ").append(x.subtree()).append(')');
            else if (s instanceof RequirementTemplate.Slot.Keyed x) b.append(sep).append("new RequirementTemplate.Slot.Keyed(").append(string(x.key())).append(", ").append(x.index()).append(", ").append(x.subtree()).append(')');
            sep = ", ";
        }
        return b.append("))").toString();
    }

    /** The JVM descriptor of an (erased) parameter or return type. */
    private String descriptor(TypeMirror t) {
        TypeMirror e = processingEnv.getTypeUtils().erasure(t);
        return switch (e.getKind()) {
            case BOOLEAN -> "Z";
            case BYTE -> "B";
            case SHORT -> "S";
            case CHAR -> "C";
            case INT -> "I";
            case LONG -> "J";
            case FLOAT -> "F";
            case DOUBLE -> "D";
            case VOID -> "V";
            case ARRAY -> "[" + descriptor(((ArrayType) e).getComponentType());
            case DECLARED -> ref(binaryName((TypeElement) ((DeclaredType) e).asElement()));
            default -> throw new IllegalStateException("no descriptor for " + e + " (" + e.getKind() + ")");
        };
    }

    private static String ref(String binaryName) { return "L" + binaryName.replace('.', '/') + ";"; }

    private static TypeElement owner(Element member) { return (TypeElement) member.getEnclosingElement(); }

    private String binaryName(TypeElement t) { return processingEnv.getElementUtils().getBinaryName(t).toString(); }

    /** A Java string literal. */
    static String string(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }
}

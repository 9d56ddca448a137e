package dev.finch;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Which build of Finch's compiler a session image was written by: a digest of the class files of the modules that
 * decide how a submission lowers, verifies and compiles (the IR, the three frontends, the verifier, the engine). An
 * image written by this very build restores its dictionary without verifying its history again (each definition is
 * rebuilt when first needed: {@link SessionHistory}); an image from any other build — or when the classes cannot be
 * read, as from a runtime image — has every definition verified again at {@code restore}, which refuses one that no
 * longer verifies the same way. Computed once per JVM, when an image is first written or read.
 */
final class EngineFingerprint {
    private EngineFingerprint() { }

    /** A class of each module whose classes make the fingerprint. */
    private static final List<Class<?>> MODULES = List.of(dev.finch.ir.instr.Module.class, dev.finch.lisp.Lisp.class, dev.finch.forth.CoForth.class,
            dev.finch.norman.NormanCode.class, dev.finch.verifier.Verifier.class, dev.finch.vm.engine.Vm.class, EngineFingerprint.class);

    /** What {@link #of()} answers when the classes cannot be read: no image is ever taken for this build's. */
    static final String UNKNOWN = "unknown";

    private static final class Holder {
        static final String VALUE = compute();
    }

    /** This build's fingerprint (computed once). */
    static String of() { return Holder.VALUE; }

    private static String compute() {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            List<Path> seen = new ArrayList<>();
            for (Class<?> c : MODULES) {
                var source = c.getProtectionDomain().getCodeSource();
                if (source == null || source.getLocation() == null) return UNKNOWN;
                Path where = Path.of(source.getLocation().toURI());
                if (seen.contains(where)) continue;
                seen.add(where);
                if (!digest(where, d)) return UNKNOWN;
            }
            return HexFormat.of().formatHex(d.digest()).substring(0, 32);
        } catch (IOException | URISyntaxException | NoSuchAlgorithmException | SecurityException | IllegalArgumentException e) {
            return UNKNOWN;
        }
    }

    /** Adds the class files under {@code dev/finch/} of a jar or a class directory, in name order. */
    private static boolean digest(Path where, MessageDigest d) throws IOException {
        TreeMap<String, byte[]> classes = new TreeMap<>();
        if (Files.isDirectory(where)) {
            Path root = where.resolve("dev/finch");
            if (!Files.isDirectory(root)) return true;
            try (Stream<Path> all = Files.walk(root)) {
                for (Path p : all.filter(f -> f.toString().endsWith(".class")).toList()) classes.put(where.relativize(p).toString(), Files.readAllBytes(p));
            }
        } else if (Files.isRegularFile(where)) {
            try (JarFile jar = new JarFile(where.toFile())) {
                for (JarEntry e : java.util.Collections.list(jar.entries())) {
                    if (!e.getName().startsWith("dev/finch/") || !e.getName().endsWith(".class")) continue;
                    try (InputStream in = jar.getInputStream(e)) {
                        classes.put(e.getName(), in.readAllBytes());
                    }
                }
            }
        } else {
            return false;
        }
        classes.forEach((name, bytes) -> {
            d.update(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            d.update(bytes);
        });
        return true;
    }
}

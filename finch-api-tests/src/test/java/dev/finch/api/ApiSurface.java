package dev.finch.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The public API of Finch's published modules, read from their built classes: the packages each module exports to
 * everyone (its {@code module-info}; an automatic module exports every package it has) and, in them, every public
 * type with its public and protected members, as one line per signature. Qualified exports ({@code exports … to}) are
 * not API: they are how Finch's own modules reach each other.
 */
final class ApiSurface {
    /** One published module: its artifact and the classes it built. */
    record Module(String artifact, Path classes) { }

    private final SortedMap<String, String> packages = new TreeMap<>(); // package → artifact
    private final SortedSet<String> lines = new TreeSet<>();
    private final SortedMap<String, SortedSet<String>> referenced = new TreeMap<>(); // finch type referenced → who

    private ApiSurface() { }

    static ApiSurface of(List<Module> modules) {
        ApiSurface api = new ApiSurface();
        // Every exported package first: a signature's types are judged against all of them.
        for (Module m : modules) {
            for (String pkg : exportedToEveryone(m.classes())) api.packages.put(pkg, m.artifact());
        }
        for (var e : api.packages.entrySet()) {
            Path classes = modules.stream().filter(m -> m.artifact().equals(e.getValue())).findFirst().orElseThrow().classes();
            for (String name : classesIn(classes, e.getKey())) api.read(name);
        }
        return api;
    }

    /** Each package exported to everyone, with the module that exports it. */
    SortedMap<String, String> packages() { return packages; }

    /** One line per public type and member, sorted: the snapshot. */
    SortedSet<String> lines() { return lines; }

    /** Finch types a public signature names that no package exported to everyone holds: each with where it is named. */
    SortedMap<String, SortedSet<String>> leaks() {
        SortedMap<String, SortedSet<String>> out = new TreeMap<>();
        referenced.forEach((type, where) -> {
            String pkg = type.contains(".") ? type.substring(0, type.lastIndexOf('.')) : "";
            if (!packages.containsKey(pkg)) out.put(type, where);
        });
        return out;
    }

    static SortedSet<String> exportedToEveryone(Path classes) {
        Path info = classes.resolve("module-info.class");
        if (!Files.exists(info)) return allPackages(classes);
        try (InputStream in = Files.newInputStream(info)) {
            return ModuleDescriptor.read(in).exports().stream().filter(e -> !e.isQualified())
                    .map(ModuleDescriptor.Exports::source).collect(Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static SortedSet<String> allPackages(Path classes) {
        try (Stream<Path> files = Files.walk(classes)) {
            return files.filter(f -> f.toString().endsWith(".class"))
                    .map(f -> classes.relativize(f.getParent()).toString().replace('/', '.'))
                    .filter(p -> !p.isEmpty()).collect(Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> classesIn(Path classes, String pkg) {
        Path dir = classes.resolve(pkg.replace('.', '/'));
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".class") && !n.equals("package-info.class"))
                    .map(n -> pkg + "." + n.substring(0, n.length() - ".class".length())).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void read(String binaryName) {
        Class<?> c;
        try {
            c = Class.forName(binaryName, false, ApiSurface.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalStateException("cannot load " + binaryName, e);
        }
        if (!visible(c)) return;
        String owner = c.getName();
        lines.add(owner + " | " + header(c));
        note(owner, c.getGenericSuperclass());
        for (Type t : c.getGenericInterfaces()) note(owner, t);
        boolean extendable = !Modifier.isFinal(c.getModifiers()) && !c.isSealed() && !c.isEnum() && !c.isRecord();
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (shown(k, extendable) && !k.isSynthetic()) {
                lines.add(owner + " | " + k.toGenericString());
                for (Type t : k.getGenericParameterTypes()) note(owner, t);
            }
        }
        for (Method m : c.getDeclaredMethods()) {
            if (shown(m, extendable) && !m.isSynthetic() && !m.isBridge()) {
                lines.add(owner + " | " + m.toGenericString());
                note(owner + "." + m.getName(), m.getGenericReturnType());
                for (Type t : m.getGenericParameterTypes()) note(owner + "." + m.getName(), t);
            }
        }
        for (Field f : c.getDeclaredFields()) {
            if (shown(f, extendable) && !f.isSynthetic()) {
                lines.add(owner + " | " + f.toGenericString());
                note(owner + "." + f.getName(), f.getGenericType());
            }
        }
        if (c.isRecord()) {
            lines.add(owner + " | record components " + Arrays.stream(c.getRecordComponents())
                    .map(r -> r.getGenericType().getTypeName() + " " + r.getName()).collect(Collectors.joining(", ")));
            for (RecordComponent r : c.getRecordComponents()) note(owner, r.getGenericType());
        }
        for (Class<?> nested : c.getDeclaredClasses()) read(nested.getName());
    }

    private static boolean visible(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            if (k.isAnonymousClass() || k.isLocalClass()) return false;
            int mod = k.getModifiers();
            boolean nested = k.getDeclaringClass() != null;
            if (!Modifier.isPublic(mod) && !(nested && Modifier.isProtected(mod))) return false;
        }
        return true;
    }

    private static boolean shown(Member m, boolean extendable) {
        int mod = m.getModifiers();
        return Modifier.isPublic(mod) || (extendable && Modifier.isProtected(mod));
    }

    private static String header(Class<?> c) {
        StringBuilder s = new StringBuilder(c.toGenericString());
        if (c.isSealed()) {
            s.append(" permits ").append(Arrays.stream(c.getPermittedSubclasses()).map(Class::getName).sorted().collect(Collectors.joining(", ")));
        }
        Type sup = c.getGenericSuperclass();
        if (sup != null && sup != Object.class && !c.isEnum() && !c.isRecord()) s.append(" extends ").append(sup.getTypeName());
        Type[] in = c.getGenericInterfaces();
        if (in.length > 0) {
            s.append(c.isInterface() ? " extends " : " implements ")
                    .append(Arrays.stream(in).map(Type::getTypeName).collect(Collectors.joining(", ")));
        }
        return s.toString();
    }

    private void note(String where, Type t) {
        if (t == null) return;
        if (t instanceof Class<?> k) {
            while (k.isArray()) k = k.getComponentType();
            if (k.getName().startsWith("dev.finch.")) {
                Class<?> top = k;
                while (top.getDeclaringClass() != null) top = top.getDeclaringClass();
                referenced.computeIfAbsent(top.getName(), x -> new TreeSet<>()).add(where);
            }
        } else if (t instanceof ParameterizedType p) {
            note(where, p.getRawType());
            for (Type a : p.getActualTypeArguments()) note(where, a);
        } else if (t instanceof GenericArrayType g) {
            note(where, g.getGenericComponentType());
        } else if (t instanceof WildcardType w) {
            for (Type b : w.getUpperBounds()) note(where, b);
            for (Type b : w.getLowerBounds()) note(where, b);
        }
        // A type variable names no type of its own; its bounds are written on its declaration.
    }

}

package io.dagnats.leases.acceptance.packaging;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The files {@link ImageLaunch} puts in {@link ImageLaunch#FILES}: copies the image's user can read. */
final class ImageFiles {

    private ImageFiles() {
    }

    /** A copy of {@code files} that the image's user can read (a key file is often its owner's only). */
    static Path readableCopy(Path files, Path work) throws IOException {
        Path copy = Files.createDirectories(work.resolve("files"));
        copy(files, copy);
        Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwxr-xr-x"));
        return copy;
    }

    /** The regular files of {@code from} into {@code to}, readable by all. */
    static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> listed = Files.list(from)) {
            for (Path file : listed.filter(Files::isRegularFile).collect(Collectors.toList())) {
                Path copied = Files.copy(file, to.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                Files.setPosixFilePermissions(copied, PosixFilePermissions.fromString("rw-r--r--"));
            }
        }
    }
}

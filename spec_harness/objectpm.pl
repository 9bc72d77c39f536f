# Reads a SPEC benchmark's Spec/object.pm and prints what the harness needs as
# JSON: the package variables (sources, exe name, flags, tolerances) and the
# command lines invoke() returns for one input set.
#
#   perl objectpm.pl OBJECT_PM EXE SIZE INPUT_DIR...
#
# object.pm is Perl written against SPEC's harness: invoke() gets the
# benchmark object ($me) and asks it for the exe file, the input files...
# This stub provides the methods object.pm files commonly call; any other is
# reported on stderr (and returns nothing) rather than failing.
use strict;
use warnings;
no warnings "once";  # object.pm variables are read once, here
use JSON::PP;

my ($objpm, $exe, $size, @inputdirs) = @ARGV;

package Stub;
our $AUTOLOAD;
sub new { my ($class, %a) = @_; return bless {%a}, $class }
sub exe_file { return $_[0]{exe} }
sub size { return $_[0]{size} }
sub benchname { return $main::benchname }
sub num { return $main::benchnum }
sub input_files_base { return @{ $_[0]{inputs} } }
sub input_files { return @{ $_[0]{inputs} } }
sub input_files_abs { return @{ $_[0]{inputs_abs} } }
sub copies { return 1 }
sub AUTOLOAD {
    my $name = $AUTOLOAD;
    $name =~ s/.*:://;
    return if $name eq 'DESTROY';
    print STDERR "objectpm: object.pm calls \$me->$name, which this harness does not provide\n";
    return;
}

package main;
no strict 'vars';
sub jp { return join('/', @_) }
sub read_file {
    my ($path) = @_;
    for my $dir ('', map { "$_/" } @inputdirs) {
        if (open(my $fh, '<', "$dir$path")) { my @l = <$fh>; close $fh; chomp @l; return @l; }
    }
    return ();
}

my @inputs;
my @inputs_abs;
for my $dir (@inputdirs) {
    next unless opendir(my $dh, $dir);
    for my $f (sort grep { !/^\./ && -f "$dir/$_" } readdir $dh) {
        push @inputs, $f;
        push @inputs_abs, "$dir/$f";
    }
    closedir $dh;
}

$objpm = "./$objpm" unless $objpm =~ m{^/};  # do FILE no longer searches .
my $ok = do $objpm;
die "objectpm: cannot load $objpm: " . ($@ || $! || 'it returned false') . "\n" unless $ok;

my @runs;
if (defined &main::invoke) {
    my $me = Stub->new(exe => $exe, size => $size, inputs => \@inputs,
                       inputs_abs => \@inputs_abs);
    @runs = main::invoke($me);
}

sub tol {  # a number, or a hash of file => number (with 'default')
    my ($v) = @_;
    return undef unless defined $v;
    return { map { $_ => (defined $v->{$_} ? $v->{$_} + 0 : undef) } keys %$v } if ref $v eq 'HASH';
    return $v + 0;
}

my %out = (
    benchnum     => $benchnum,
    benchname    => $benchname,
    exename      => $exename,
    benchlang    => $benchlang,
    sources      => [ @sources ],
    bench_flags  => $bench_flags,
    bench_cflags => $bench_cflags,
    need_math    => $need_math,
    abstol       => tol($abstol),
    reltol       => tol($reltol),
    compwhite    => $compwhite,
    floatcompare => $floatcompare,
    obiwan       => $obiwan,
    skiptol      => tol($skiptol),
    ignorecase   => $ignorecase,
    invoke_defined => (defined &main::invoke ? JSON::PP::true : JSON::PP::false),
    runs         => [ map { {
        command => $_->{command},
        args    => [ map { "$_" } @{ $_->{args} || [] } ],
        input   => $_->{input},
        output  => $_->{output},
        error   => $_->{error},
    } } @runs ],
);
print JSON::PP->new->canonical->encode(\%out), "\n";
